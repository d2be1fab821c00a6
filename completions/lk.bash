# bash completion for lk                                  -*- shell-script -*-
# Generated from lk's command tree by `lk completion bash` (npm run completions); do not edit.
# Install: lk completion bash > ~/.local/share/bash-completion/completions/lk
#     or, in ~/.bashrc: source <(lk completion bash)

# Sets __lk_subs, __lk_flags and __lk_value_flags for the command path in $1 ('' for lk itself).
__lk_node() {
    local globals='-V --version --profile --base-url --format --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
    local global_values='--profile --base-url --format --fields --jq --lang --cache --max-wait --timeout --cacert'
    __lk_subs= __lk_flags=$globals __lk_value_flags=$global_values
    case $1 in
    '')
        __lk_subs='auth whoami library history lists calendar next status serve stats reviews profile notifications notify export diff convert sync search sql feed report publish card mcp open api schedule alias extension config completion doctor sandbox'
        ;;
    'auth')
        __lk_subs='login status switch token logout'
        ;;
    'auth login')
        __lk_flags='--with-key --allow-http --insecure-storage --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'auth switch')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'auth token')
        __lk_flags='--show --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'auth logout')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'whoami')
        __lk_flags="-o --output $globals"
        __lk_value_flags="-o --output $global_values"
        ;;
    'library')
        __lk_subs='list show history'
        __lk_flags="--phase --domain --sort --order --offline --db -o --output --page --limit --all --max $globals"
        __lk_value_flags="--phase --domain --sort --order --db -o --output --page --limit --max $global_values"
        ;;
    'library list')
        __lk_flags="--phase --domain --sort --order --offline --db -o --output --page --limit --all --max $globals"
        __lk_value_flags="--phase --domain --sort --order --db -o --output --page --limit --max $global_values"
        ;;
    'library show')
        __lk_flags="-o --output $globals"
        __lk_value_flags="-o --output $global_values"
        ;;
    'library history')
        __lk_flags="-o --output --page --limit --all --max $globals"
        __lk_value_flags="-o --output --page --limit --max $global_values"
        ;;
    'history')
        __lk_flags="--from --to --domain --offline --db -o --output --page --limit --all --max $globals"
        __lk_value_flags="--from --to --domain --db -o --output --page --limit --max $global_values"
        ;;
    'lists')
        __lk_subs='list show'
        __lk_flags="--offline --db -o --output --page --limit --all --max $globals"
        __lk_value_flags="--db -o --output --page --limit --max $global_values"
        ;;
    'lists list')
        __lk_flags="--offline --db -o --output --page --limit --all --max $globals"
        __lk_value_flags="--db -o --output --page --limit --max $global_values"
        ;;
    'lists show')
        __lk_flags="-o --output $globals"
        __lk_value_flags="-o --output $global_values"
        ;;
    'calendar')
        __lk_flags='--domain --offline --db -o --output --spoiler-free --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--domain --db -o --output --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'next')
        __lk_flags="--domain --limit --all --random --seed --offline --db -o --output $globals"
        __lk_value_flags="--domain --limit --seed --db -o --output $global_values"
        ;;
    'status')
        __lk_flags='--json-schema --offline --db -o --output --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--db -o --output --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'serve')
        __lk_flags='--host --port --sync-every --token-file --mcp --replace --notify --to --db --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--host --port --sync-every --token-file --to --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'stats')
        __lk_flags="-o --output --domain --offline --db $globals"
        __lk_value_flags="-o --output --domain --db $global_values"
        ;;
    'reviews')
        __lk_flags="--domain --offline --db -o --output --page --limit --all --max $globals"
        __lk_value_flags="--domain --db -o --output --page --limit --max $global_values"
        ;;
    'profile')
        __lk_subs='achievements'
        __lk_flags="-o --output $globals"
        __lk_value_flags="-o --output $global_values"
        ;;
    'profile achievements')
        __lk_flags="-o --output --page --limit --all --max $globals"
        __lk_value_flags="-o --output --page --limit --max $global_values"
        ;;
    'notifications')
        __lk_flags="--offline --db -o --output --page --limit --all --max $globals"
        __lk_value_flags="--db -o --output --page --limit --max $global_values"
        ;;
    'notify')
        __lk_flags='--to --sync --dry-run --mark-sent --db --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--to --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'export')
        __lk_flags='-o --output --output-dir --keep --gzip --max-age --fresh --git --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='-o --output --output-dir --keep --max-age --git --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'diff')
        __lk_flags='--exit-code --db --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'convert')
        __lk_flags='-o --output --since --domain --strict --rating-scale --db --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='-o --output --since --domain --rating-scale --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'sync')
        __lk_flags='--db --full --replace --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'search')
        __lk_flags="--domain --phase --db -o --output --page --limit --all --max $globals"
        __lk_value_flags="--domain --phase --db -o --output --page --limit --max $global_values"
        ;;
    'sql')
        __lk_flags="--db --schema $globals"
        __lk_value_flags="--db $global_values"
        ;;
    'feed')
        __lk_flags='--limit --domain --since --public --sync -o --output --db --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--limit --domain --since -o --output --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'report')
        __lk_flags='--year --from --to -o --output --open --sync --db --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--year --from --to -o --output --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'publish')
        __lk_flags='--lists --title --sync --db --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--lists --title --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'card')
        __lk_flags='--theme -o --output --sync --db --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--theme -o --output --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'mcp')
        __lk_flags='--db --live --tools --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--db --tools --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'open')
        __lk_flags='--work --list --profile-page -n --no-browser --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--list --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'api')
        __lk_flags='-F --field --paginate --include --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='-F --field --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'schedule')
        __lk_subs='add list remove'
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'schedule add')
        __lk_flags='--every --dir --print --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--every --dir --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'schedule list')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'schedule remove')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'alias')
        __lk_subs='list set delete'
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'alias list')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'alias set')
        __lk_flags='-s --shell --format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'alias delete')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'extension')
        __lk_subs='list'
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'extension list')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'config')
        __lk_subs='list get set unset'
        ;;
    'config get')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'config set')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'config unset')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'completion')
        __lk_flags='--format -V --version --profile --base-url --json --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'doctor')
        __lk_flags='--json --format -V --version --profile --base-url --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    'sandbox')
        __lk_flags='--port --host --seed --entries --rate-limit --export-interval --variant --tls-key --tls-cert --json --format -V --version --profile --base-url --ndjson --csv --tsv --fields --jq --no-header --lang --no-color --no-pager --csv-safe -q --quiet -v --verbose --cache --no-wait --max-wait --timeout --cacert -h --help'
        __lk_value_flags='--port --host --seed --entries --rate-limit --export-interval --variant --tls-key --tls-cert --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert'
        ;;
    esac
}

# Sets __lk_name to the subcommand of command path $1 called $2 (a name or an alias); fails when there is none.
__lk_child() {
    case $1\|$2 in
    '|auth') __lk_name=auth ;;
    '|whoami') __lk_name=whoami ;;
    '|library') __lk_name=library ;;
    '|history') __lk_name=history ;;
    '|lists') __lk_name=lists ;;
    '|calendar') __lk_name=calendar ;;
    '|next') __lk_name=next ;;
    '|status') __lk_name=status ;;
    '|serve') __lk_name=serve ;;
    '|stats') __lk_name=stats ;;
    '|reviews') __lk_name=reviews ;;
    '|profile') __lk_name=profile ;;
    '|notifications') __lk_name=notifications ;;
    '|notify') __lk_name=notify ;;
    '|export') __lk_name=export ;;
    '|diff') __lk_name=diff ;;
    '|convert') __lk_name=convert ;;
    '|sync') __lk_name=sync ;;
    '|search') __lk_name=search ;;
    '|sql') __lk_name=sql ;;
    '|feed') __lk_name=feed ;;
    '|report') __lk_name=report ;;
    '|publish') __lk_name=publish ;;
    '|card') __lk_name=card ;;
    '|mcp') __lk_name=mcp ;;
    '|open') __lk_name=open ;;
    '|api') __lk_name=api ;;
    '|schedule') __lk_name=schedule ;;
    '|alias') __lk_name=alias ;;
    '|extension') __lk_name=extension ;;
    '|config') __lk_name=config ;;
    '|completion') __lk_name=completion ;;
    '|doctor') __lk_name=doctor ;;
    '|sandbox') __lk_name=sandbox ;;
    'auth|login') __lk_name=login ;;
    'auth|status') __lk_name=status ;;
    'auth|switch') __lk_name=switch ;;
    'auth|token') __lk_name=token ;;
    'auth|logout') __lk_name=logout ;;
    'library|list') __lk_name=list ;;
    'library|show') __lk_name=show ;;
    'library|history') __lk_name=history ;;
    'lists|list') __lk_name=list ;;
    'lists|show') __lk_name=show ;;
    'profile|achievements') __lk_name=achievements ;;
    'schedule|add') __lk_name=add ;;
    'schedule|list') __lk_name=list ;;
    'schedule|remove') __lk_name=remove ;;
    'alias|list') __lk_name=list ;;
    'alias|set') __lk_name=set ;;
    'alias|delete') __lk_name=delete ;;
    'extension|list') __lk_name=list ;;
    'config|list') __lk_name=list ;;
    'config|get') __lk_name=get ;;
    'config|set') __lk_name=set ;;
    'config|unset') __lk_name=unset ;;
    *) return 1 ;;
    esac
}

# Sets __lk_kind (words, profiles, files or dirs) and __lk_words for the value of flag $2 at command path $1.
__lk_value() {
    __lk_kind= __lk_words=
    case $1\|$2 in
    'auth login|--format' | 'auth switch|--format' | 'auth token|--format' | 'auth logout|--format' | 'serve|--format' | 'convert|--format' | 'sync|--format' | 'publish|--format' | 'mcp|--format' | 'open|--format' | 'schedule remove|--format' | 'alias|--format' | 'alias list|--format' | 'alias set|--format' | 'alias delete|--format' | 'extension|--format' | 'extension list|--format' | 'config get|--format' | 'config set|--format' | 'config unset|--format' | 'completion|--format') __lk_kind=words __lk_words='' ;;
    'whoami|-o' | 'whoami|--output' | 'library|--db' | 'library|-o' | 'library|--output' | 'library list|--db' | 'library list|-o' | 'library list|--output' | 'library show|-o' | 'library show|--output' | 'library history|-o' | 'library history|--output' | 'history|--db' | 'history|-o' | 'history|--output' | 'lists|--db' | 'lists|-o' | 'lists|--output' | 'lists list|--db' | 'lists list|-o' | 'lists list|--output' | 'lists show|-o' | 'lists show|--output' | 'calendar|--db' | 'calendar|-o' | 'calendar|--output' | 'next|--db' | 'next|-o' | 'next|--output' | 'status|--db' | 'status|-o' | 'status|--output' | 'serve|--token-file' | 'serve|--db' | 'stats|-o' | 'stats|--output' | 'stats|--db' | 'reviews|--db' | 'reviews|-o' | 'reviews|--output' | 'profile|-o' | 'profile|--output' | 'profile achievements|-o' | 'profile achievements|--output' | 'notifications|--db' | 'notifications|-o' | 'notifications|--output' | 'notify|--db' | 'export|-o' | 'export|--output' | 'diff|--db' | 'convert|-o' | 'convert|--output' | 'convert|--db' | 'sync|--db' | 'search|--db' | 'search|-o' | 'search|--output' | 'sql|--db' | 'feed|-o' | 'feed|--output' | 'feed|--db' | 'report|-o' | 'report|--output' | 'report|--db' | 'publish|--db' | 'card|-o' | 'card|--output' | 'card|--db' | 'mcp|--db' | 'sandbox|--tls-key' | 'sandbox|--tls-cert' | *'|--cacert') __lk_kind=files ;;
    'library|--phase' | 'library list|--phase' | 'search|--phase') __lk_kind=words __lk_words='PLANNED IN_PROGRESS DONE DROPPED' ;;
    'library|--domain' | 'library list|--domain' | 'history|--domain' | 'calendar|--domain' | 'next|--domain' | 'stats|--domain' | 'reviews|--domain' | 'convert|--domain' | 'search|--domain' | 'feed|--domain') __lk_kind=words __lk_words='MEDIA GAMES BOOKS MUSIC' ;;
    'library|--sort' | 'library list|--sort') __lk_kind=words __lk_words='added title rating finished' ;;
    'library|--order' | 'library list|--order') __lk_kind=words __lk_words='desc asc' ;;
    'calendar|--format') __lk_kind=words __lk_words='table json ndjson csv tsv ics' ;;
    'status|--format' | 'notify|--format' | 'diff|--format' | 'schedule|--format' | 'schedule add|--format' | 'schedule list|--format' | 'doctor|--format') __lk_kind=words __lk_words='table json' ;;
    'export|--output-dir' | 'export|--git' | 'schedule add|--dir') __lk_kind=dirs ;;
    'export|--format') __lk_kind=words __lk_words='json csv' ;;
    'convert|--rating-scale') __lk_kind=words __lk_words='5 10 100' ;;
    'feed|--format') __lk_kind=words __lk_words='atom json' ;;
    'report|--format') __lk_kind=words __lk_words='html json' ;;
    'card|--theme') __lk_kind=words __lk_words='light dark auto' ;;
    'card|--format') __lk_kind=words __lk_words='svg' ;;
    'api|--format') __lk_kind=words __lk_words='json' ;;
    'sandbox|--variant') __lk_kind=words __lk_words='default alt' ;;
    'sandbox|--format') __lk_kind=words __lk_words='lines json' ;;
    *'|--profile') __lk_kind=profiles ;;
    *'|--format') __lk_kind=words __lk_words='table json ndjson csv tsv' ;;
    *'|--lang') __lk_kind=words __lk_words='en fr it' ;;
    esac
}

# Sets __lk_words to the values of operand $2 (from 0) at command path $1, or __lk_dynamic to the words after
# lk that print them at Tab time (__lk_with_operands: followed by the operands typed before).
__lk_operand() {
    __lk_words= __lk_dynamic= __lk_with_operands=
    case $1\|$2 in
    'auth switch|0') __lk_dynamic='completion --profiles' ;;
    'library show|0') __lk_dynamic='completion --ids entries' ;;
    'library history|0') __lk_dynamic='completion --ids entries' ;;
    'lists show|0') __lk_dynamic='completion --ids lists' ;;
    'convert|0') __lk_words='letterboxd goodreads yamtrack mal' ;;
    'card|0') __lk_words='stats now heatmap year' ;;
    'open|0') __lk_dynamic='completion --ids entries' ;;
    'schedule add|0') __lk_words='sync backup notify' ;;
    'schedule remove|0') __lk_words='sync backup notify' ;;
    'alias set|0') __lk_dynamic='completion --aliases' ;;
    'alias delete|0') __lk_dynamic='completion --aliases' ;;
    'config get|0') __lk_words='format lang color base-url max-wait timeout max-body pager ca-file notify csv-safe' ;;
    'config set|0') __lk_words='format lang color base-url max-wait timeout max-body pager ca-file notify csv-safe' ;;
    'config set|1') __lk_dynamic='completion --setting-values' __lk_with_operands=1 ;;
    'config unset|0') __lk_words='format lang color base-url max-wait timeout max-body pager ca-file notify csv-safe' ;;
    'completion|0') __lk_words='bash zsh fish powershell' ;;
    esac
}

_lk() {
    local cur=${COMP_WORDS[COMP_CWORD]} path= flag= prefix= word i operands=0 skip=0
    local __lk_subs __lk_flags __lk_value_flags __lk_name __lk_kind __lk_words __lk_dynamic __lk_with_operands
    local -a candidates ops
    COMPREPLY=()
    # The words before the cursor: subcommands make the path, flags are passed over with their values.
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        # "--flag=value" arrives as three words when COMP_WORDBREAKS holds "=" (the default).
        if [[ $word == = ]]; then skip=1; continue; fi
        if ((skip)); then skip=0; continue; fi
        case $word in
        --*=*) ;;
        -?*)
            __lk_node "$path"
            [[ " $__lk_value_flags " == *" $word "* ]] && skip=1
            ;;
        *)
            if ((operands == 0)) && __lk_child "$path" "$word"; then
                path=${path:+$path }$__lk_name
            else
                operands=$((operands + 1)) ops+=("$word")
            fi
            ;;
        esac
    done
    __lk_node "$path"

    # The value of a flag: "--flag VALUE", "--flag=VALUE", or "--flag=" where "=" broke the word.
    if [[ $cur == = ]]; then
        flag=${COMP_WORDS[COMP_CWORD-1]} cur=
    elif ((skip)); then
        flag=${COMP_WORDS[COMP_CWORD-1]}
        [[ $flag == = ]] && flag=${COMP_WORDS[COMP_CWORD-2]}
    elif [[ $cur == --*=* ]]; then
        flag=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}
    fi
    if [[ -n $flag ]]; then
        [[ " $__lk_value_flags " == *" $flag "* ]] || return 0
        __lk_value "$path" "$flag"
        case $__lk_kind in
        files | dirs)
            compopt -o filenames 2>/dev/null
            [[ $__lk_kind == files ]] && word=-f || word=-d
            mapfile -t COMPREPLY < <(compgen "$word" -- "$cur")
            ;;
        profiles)
            # Read, not expanded: a profile name is data, whatever it holds.
            while IFS= read -r word; do
                [[ -n $word && $word == "$cur"* ]] || continue
                [[ -n $prefix ]] && COMPREPLY+=("$prefix$word") || COMPREPLY+=("$(printf %q "$word")")
            done < <("${COMP_WORDS[0]}" completion --profiles 2>/dev/null)
            ;;
        words)
            read -ra candidates <<<"$__lk_words"
            for word in "${candidates[@]}"; do [[ $word == "$cur"* ]] && COMPREPLY+=("$prefix$word"); done
            ;;
        esac
        return 0
    fi

    if [[ $cur == -* ]]; then
        read -ra candidates <<<"$__lk_flags"
    elif ((operands == 0)) && [[ -n $__lk_subs ]]; then
        read -ra candidates <<<"$__lk_subs"
        if [[ -z $path ]]; then
            # This machine's aliases and extensions, beside the commands.
            while IFS= read -r word; do
                [[ -n $word ]] && candidates+=("$word")
            done < <("${COMP_WORDS[0]}" completion --aliases 2>/dev/null; "${COMP_WORDS[0]}" completion --extensions 2>/dev/null)
        fi
    else
        __lk_operand "$path" "$operands"
        if [[ -n $__lk_dynamic ]]; then
            # Read, not expanded: ids and values are data, whatever they hold.
            read -ra candidates <<<"$__lk_dynamic"
            ((__lk_with_operands)) && candidates+=("${ops[@]}")
            while IFS= read -r word; do
                [[ -n $word && $word == "$cur"* ]] && COMPREPLY+=("$(printf %q "$word")")
            done < <("${COMP_WORDS[0]}" "${candidates[@]}" 2>/dev/null)
            return 0
        fi
        read -ra candidates <<<"$__lk_words"
    fi
    for word in "${candidates[@]}"; do [[ $word == "$cur"* ]] && COMPREPLY+=("$word"); done
    return 0
}

complete -F _lk lk
