import type { Message } from '../messages.js';
import type { PostOptions, Posted } from '../http.js';
import type { Target } from '../targets.js';

/**
 * What a target answered to one message: taken, or not and why (and how long a 429 asks to wait). `content`: refused
 * for the message itself (too long, malformed), not for the target: the target's next message may still go.
 */
export type Outcome = { ok: true } | { ok: false; error: string; retryAfterMs?: number | undefined; content?: boolean };

/** The statuses that refuse a request for what it holds: 400 Bad Request, 413 Content Too Large, 422 Unprocessable. */
const CONTENT_REFUSED = new Set([400, 413, 422]);

/** What a sender has besides the target and the message: the run's environment, clock, signal and timeout. */
export type SendOptions = PostOptions;

/** One scheme's way to send a message (./ntfy.ts, ./json.ts, ./mailto.ts, ./discord.ts, ./apprise.ts). */
export type Sender = (target: Target, message: Message, options: SendOptions) => Promise<Outcome>;

/** An HTTP answer as an outcome: 2xx taken; a 429 with its wait; anything else refused, with the start of its body. */
export function outcomeOf(answer: Posted): Outcome {
  if (answer.status >= 200 && answer.status < 300) return { ok: true };
  const said = answer.text === '' ? '' : `: ${answer.text}`;
  return {
    ok: false,
    error: `HTTP ${answer.status}${said}`,
    retryAfterMs: answer.status === 429 || answer.status === 503 ? answer.retryAfterMs : undefined,
    content: CONTENT_REFUSED.has(answer.status),
  };
}

/** user:pass of the URL as an Authorization header (ntfy, json), none without a user. */
export function basicAuth(url: URL): Record<string, string> {
  if (url.username === '') return {};
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/** The http(s) URL a scheme's target is reached at: the secure form (ntfys, jsons) over https. */
export function httpUrl(url: URL, secure: boolean, path = url.pathname): URL {
  const port = url.port === '' ? '' : `:${url.port}`;
  return new URL(`${secure ? 'https' : 'http'}://${url.hostname}${port}${path}`);
}
