/**
 * The one way lk serve writes a line on stderr: every line it logs (a request that failed, the MCP library's
 * errors, a sync's or a notification's outcome) passes through here, so that no secret reaches a journal — the
 * token wherever it stands (a request URL's `?token=`, a Host's userinfo, an Authorization header quoted back), and
 * any URL's userinfo or `token=` value, whatever the library that made the line put in it.
 */
export function serveLog(write: (line: string) => void, token: string | undefined): (line: string) => void {
  return (line) => write(withoutSecrets(line, token));
}

const HIDDEN = '…';

/** `line` with the token, `token=` values, userinfo and Bearer credentials replaced by an ellipsis. */
export function withoutSecrets(line: string, token?: string): string {
  let text = line;
  if (token !== undefined && token !== '') for (const form of new Set([token, encodeURIComponent(token)])) text = text.split(form).join(HIDDEN);
  return text
    .replace(/(token=)[^&\s#"'<>]*/gi, `$1${HIDDEN}`)
    .replace(/(\/\/)[^/\s@?#]*@/g, `$1${HIDDEN}@`)
    .replace(/(Bearer\s+)\S+/gi, `$1${HIDDEN}`);
}
