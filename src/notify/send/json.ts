import { post } from '../http.js';
import type { Message } from '../messages.js';
import { queryPairs } from '../../util/target-mask.js';
import { basicAuth, httpUrl, outcomeOf, type Sender } from './outcome.js';

/**
 * Apprise's JSON notification (its json:// plugin, NotifyJSON.py): a POST of this body, key for key, so that a
 * receiver written for Apprise takes lk's. lk sends no attachment: the list is empty.
 */
export function appriseJsonBody(message: Message): { version: string; title: string; message: string; attachments: never[]; type: string } {
  return { version: '1.0', title: message.title, message: message.body, attachments: [], type: 'info' };
}

/**
 * The request as Apprise makes it from the URL's parameters: `method=` (POST unless named), `+Name=value` a header,
 * `-name=value` a query parameter of the request, `:key=value` a key of the body set (or replaced).
 */
export function jsonRequest(url: URL, message: Message): { method: string; url: URL; headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { ...basicAuth(url), 'content-type': 'application/json' };
  const body: Record<string, unknown> = appriseJsonBody(message);
  const to = httpUrl(url, url.protocol === 'jsons:');
  let method = 'POST';
  for (const [name, value] of queryPairs(url)) {
    if (name.toLowerCase() === 'method') method = value.toUpperCase();
    else if (name.startsWith('+')) headers[name.slice(1).toLowerCase()] = value;
    else if (name.startsWith('-')) to.searchParams.append(name.slice(1), value);
    else if (name.startsWith(':')) body[name.slice(1)] = value;
  }
  return { method, url: to, headers, body: JSON.stringify(body) };
}

export const sendJson: Sender = async (target, message, options) => {
  const request = jsonRequest(target.url, message);
  return outcomeOf(await post(request.url, request.headers, request.body, { ...options, method: request.method }));
};
