/**
 * Anything key-shaped in text that is about to be shown (errors, traces) is masked: a whole key as `lk_AbC…9xYz`, any
 * shorter run after `lk_` (a server echoing part of a key) as `lk_…`, and any run of 8 or more characters taken from a
 * key this process uses, wherever it appears.
 */
const KEY_RUN = /lk_[0-9A-Za-z]+/g;
const WORD_RUN = /[0-9A-Za-z]{8,}/g;
/** A run this long taken from a key is a piece of the secret, not a coincidence. */
const PIECE = 8;

const secrets = new Set<string>();

/** The keys this process sends: pieces of them are masked too, not only the prefixed form. */
export function registerSecret(key: string): void {
  if (key.length >= PIECE) secrets.add(key);
}

/** `lk_AbC…9xYz`: enough to tell keys apart, never enough to use one. */
export function maskKey(key: string): string {
  if (key.length < 12) return '…';
  return `${key.slice(0, 6)}…${key.slice(-4)}`;
}

export function redactKeys(text: string): string {
  let out = text.replace(KEY_RUN, (run) => (run.length === 52 ? maskKey(run) : 'lk_…'));
  if (secrets.size > 0) out = out.replace(WORD_RUN, (run) => (holdsPieceOfSecret(run) ? '…' : run));
  return out;
}

function holdsPieceOfSecret(run: string): boolean {
  for (let start = 0; start + PIECE <= run.length; start++) {
    const piece = run.slice(start, start + PIECE);
    for (const secret of secrets) if (secret.includes(piece)) return true;
  }
  return false;
}
