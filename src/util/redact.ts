/** Any key-shaped string in text that is about to be shown (errors, traces) is masked. */
const KEY_ANYWHERE = /lk_[0-9A-Za-z]{49}/g;

export function redactKeys(text: string): string {
  return text.replace(KEY_ANYWHERE, (key) => `${key.slice(0, 6)}…${key.slice(-4)}`);
}
