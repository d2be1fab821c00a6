import { post } from '../http.js';
import { queryPairs } from '../../util/target-mask.js';
import { capBytes } from './cap.js';
import { basicAuth, httpUrl, outcomeOf, type Sender } from './outcome.js';

/** What ntfy takes as a message: a longer one becomes an attachment (docs.ntfy.sh/publish/#limitations). */
const NTFY_MAX_BYTES = 4096;

/**
 * ntfy's protocol (docs.ntfy.sh/publish): a POST of the message to the topic's URL, its title in the Title header,
 * and Apprise's parameters as ntfy's headers (priority=, tags=, click=). A header holds Latin-1 only: a title beyond
 * ASCII goes as an RFC 2047 encoded word, which ntfy decodes.
 */
export const sendNtfy: Sender = async (target, message, options) => {
  const headers: Record<string, string> = { ...basicAuth(target.url), title: headerText(message.title), 'content-type': 'text/plain; charset=utf-8' };
  for (const [name, value] of queryPairs(target.url)) headers[name.toLowerCase()] = headerText(value);
  return outcomeOf(await post(httpUrl(target.url, target.scheme === 'ntfys'), headers, capBytes(message.body, NTFY_MAX_BYTES), options));
};

export function headerText(value: string): string {
  const line = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(line) ? line : `=?UTF-8?B?${Buffer.from(line).toString('base64')}?=`;
}
