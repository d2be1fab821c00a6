#!/bin/sh
# install.sh: installs lk from a release archive, after checking it against the SHA256SUMS beside it.
#
#   sh install.sh [--prefix DIR] [ARCHIVE | BASE_URL]
#
# ARCHIVE: lk-VERSION-linux-ARCH.tar.gz (default: the one for this machine beside this script). BASE_URL: where a
# release is published (its SHA256SUMS and archives); downloading needs curl or wget. Nothing is written before the
# archive's checksum matches. DIR defaults to ~/.local: DIR/bin/lk, DIR/share/man/man1/, and the completions under
# DIR/share/ (bash-completion, zsh's site-functions, fish's vendor_completions.d; PowerShell's in DIR/share/lk/).
# Needs sh, tar, gzip and sha256sum: no Node.
set -eu

prog=install.sh
prefix=${HOME:-}/.local
source=

say() { printf '%s\n' "$*"; }
fail() {
  printf '%s: %s\n' "$prog" "$1" >&2
  exit "${2:-1}"
}
usage() {
  say "usage: sh install.sh [--prefix DIR] [ARCHIVE | BASE_URL]"
  say "Installs lk from a release archive into DIR (default ~/.local) after checking it against SHA256SUMS."
}

while [ $# -gt 0 ]; do
  case $1 in
    --prefix)
      [ $# -ge 2 ] || fail "--prefix needs a folder" 2
      prefix=$2
      shift 2
      ;;
    --prefix=*)
      prefix=${1#--prefix=}
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    -*) fail "unknown option $1 (see --help)" 2 ;;
    *)
      [ -z "$source" ] || fail "one archive or base URL, not two" 2
      source=$1
      shift
      ;;
  esac
done
[ -n "$prefix" ] || fail "--prefix is empty" 2
# A control character (a newline above all) in the prefix would be a line of its own in uninstall.sh and in what
# this prints: refused, as no real folder needs one.
case $prefix in
  *[[:cntrl:]]*) fail "--prefix holds a control character (a newline, a tab…): name a plain folder" 2 ;;
esac
# uninstall.sh names what it removes by absolute path, wherever it is run from.
case $prefix in
  /*) ;;
  *) prefix=$(pwd)/$prefix ;;
esac

for tool in tar gzip sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || fail "needs $tool on PATH"
done

case $(uname -m) in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) fail "no lk release for this machine ($(uname -m)): lk is built for x86_64 and aarch64" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/lk-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

download() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL -o "$2" "$1" || fail "cannot download $1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || fail "cannot download $1"
  else
    fail "downloading $1 needs curl or wget"
  fi
}

# The archive and the SHA256SUMS beside it, copied into this run's private folder ($work, 0700): the copy is what is
# checked and unpacked, so nobody who can write beside the archive can swap it between the two.
case $source in
  http://*)
    printf '%s: warning: %s is plain http: the archive and SHA256SUMS can be changed on the way (use https://)\n' "$prog" "$source" >&2
    ;;
esac
case $source in
  http://* | https://*)
    base=${source%/}
    download "$base/SHA256SUMS" "$work/SHA256SUMS"
    name=$(sed -n "s/^[0-9a-f]\{64\}  \(lk-[^ ]*-linux-$arch\.tar\.gz\)\$/\1/p" "$work/SHA256SUMS" | head -n 1)
    [ -n "$name" ] || fail "$base/SHA256SUMS names no archive for linux-$arch"
    download "$base/$name" "$work/$name"
    ;;
  *)
    if [ -z "$source" ]; then
      here=$(dirname "$0")
      for candidate in "$here"/lk-*-linux-"$arch".tar.gz; do
        [ -e "$candidate" ] || fail "no lk-*-linux-$arch.tar.gz beside install.sh: name the archive or a base URL"
        [ -z "$source" ] || fail "more than one lk-*-linux-$arch.tar.gz beside install.sh: name the one to install"
        source=$candidate
      done
    fi
    [ -f "$source" ] || fail "no such archive: $source"
    dir=$(dirname "$source")
    name=$(basename "$source")
    case $name in
      lk-*-linux-*.tar.gz) ;;
      *) fail "$name is not an lk release archive (lk-VERSION-linux-ARCH.tar.gz)" ;;
    esac
    [ -f "$dir/SHA256SUMS" ] || fail "no SHA256SUMS beside $name: it cannot be checked, so it is not installed"
    cp "$dir/SHA256SUMS" "$work/SHA256SUMS" || fail "cannot read $dir/SHA256SUMS"
    cp "$source" "$work/$name" || fail "cannot read $source"
    ;;
esac

case $name in
  lk-*-linux-*.tar.gz) ;;
  *) fail "$name is not an lk release archive (lk-VERSION-linux-ARCH.tar.gz)" ;;
esac

# The check, before anything is written: the archive's line of SHA256SUMS, and the sum of the copy in $work.
grep "  $name\$" "$work/SHA256SUMS" >"$work/sum" || fail "SHA256SUMS names no $name: nothing installed"
(cd "$work" && sha256sum -c --status sum) || fail "checksum does not match for $name: nothing installed"

# Plain files and folders only, all under the archive's own top folder: a link or a device among the members could
# make the copy below read something of this machine's (a symlink to a private file) or write outside the prefix.
top=${name%.tar.gz}
tar -tvzf "$work/$name" >"$work/members" || fail "cannot read $name: nothing installed"
odd=$(grep -v '^[-d]' "$work/members" | head -n 1) || true
[ -z "$odd" ] || fail "$name holds a link or a special file ($odd): nothing installed"
tar -tzf "$work/$name" >"$work/names" || fail "cannot read $name: nothing installed"
outside=$(awk -v top="$top/" 'index($0, top) != 1 || /(^|\/)\.\.(\/|$)/' "$work/names" | head -n 1)
[ -z "$outside" ] || fail "$name holds $outside, outside $top/: nothing installed"
mkdir "$work/unpacked"
tar -xozf "$work/$name" -C "$work/unpacked" || fail "cannot unpack $name: nothing installed"
unpacked=$work/unpacked/$top
[ -f "$unpacked/lk" ] && [ -x "$unpacked/lk" ] || fail "$name holds no $top/lk: nothing installed"

installed=
created=
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# folder DIR: made with its missing parents, each remembered (newest first) for uninstall.sh to remove when empty.
folder() {
  [ -d "$1" ] && return 0
  folder "$(dirname "$1")"
  mkdir "$1"
  created="$(quote "$1") $created"
}
place() { # place FROM TO MODE [quiet]: copied beside, then renamed over TO, so a running lk is never half-written
  folder "$(dirname "$2")"
  cp "$1" "$2.new.$$"
  chmod "$3" "$2.new.$$"
  mv -f "$2.new.$$" "$2"
  installed="$installed $(quote "$2")"
  [ -n "${4:-}" ] || say "  $2"
}

say "Installing $top into $prefix:"
place "$unpacked/lk" "$prefix/bin/lk" 755
pages=0
for page in "$unpacked"/man/man1/*.1; do
  [ -e "$page" ] || continue
  place "$page" "$prefix/share/man/man1/$(basename "$page")" 644 quiet
  pages=$((pages + 1))
done
[ "$pages" -eq 0 ] || say "  $prefix/share/man/man1/: $pages pages (man lk, man lk-COMMAND)"
completions=$unpacked/completions
[ -f "$completions/lk.bash" ] && place "$completions/lk.bash" "$prefix/share/bash-completion/completions/lk" 644
[ -f "$completions/_lk" ] && place "$completions/_lk" "$prefix/share/zsh/site-functions/_lk" 644
[ -f "$completions/lk.fish" ] && place "$completions/lk.fish" "$prefix/share/fish/vendor_completions.d/lk.fish" 644
[ -f "$completions/lk.ps1" ] && place "$completions/lk.ps1" "$prefix/share/lk/completions/lk.ps1" 644

# The way back: a script that removes exactly what was placed here, itself last.
uninstall=$prefix/share/lk/uninstall.sh
folder "$(dirname "$uninstall")"
{
  say "#!/bin/sh"
  say "# Removes $top from $prefix, as install.sh put it there."
  say "rm -f$installed"
  say "rm -f $(quote "$uninstall")"
  [ -z "$created" ] || say "rmdir $created 2>/dev/null || true"
  say "echo $(quote "lk removed from $prefix")"
} >"$uninstall"
chmod 755 "$uninstall"

say ""
say "lk $("$prefix/bin/lk" --version 2>/dev/null || echo "(from $top)") is installed."
case ":${PATH:-}:" in
  *":$prefix/bin:"*) ;;
  *) say "$prefix/bin is not on your PATH: add it (export PATH=\"$prefix/bin:\$PATH\")." ;;
esac
# zsh reads completions from the folders on its fpath; ~/.local's is not among them by default.
zsh_functions=$prefix/share/zsh/site-functions
if command -v zsh >/dev/null 2>&1 && [ -f "$zsh_functions/_lk" ]; then
  # shellcheck disable=SC2016 # $fpath is zsh's, expanded by zsh.
  if ! zsh -fc 'print -rl -- $fpath' 2>/dev/null | grep -qxF "$zsh_functions"; then
    say "zsh looks for completions on its fpath: add this line to ~/.zshrc before compinit:"
    say "  fpath=($(quote "$zsh_functions") \$fpath)"
  fi
fi
say "To uninstall: sh $(quote "$uninstall")"
