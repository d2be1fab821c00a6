import { post } from '../http.js';
import { basicAuth, httpUrl, outcomeOf, type Sender } from './outcome.js';

/**
 * ntfy's protocol (docs.ntfy.sh/publish): a POST of the message to the topic's URL, its title in the Title header.
 * A header holds Latin-1 only: a title beyond ASCII goes as an RFC 2047 encoded word, which ntfy decodes.
 */
export const sendNtfy: Sender = async (target, message, options) => {
  const headers = { ...basicAuth(target.url), title: headerText(message.title), 'content-type': 'text/plain; charset=utf-8' };
  return outcomeOf(await post(httpUrl(target.url, target.scheme === 'ntfys'), headers, message.body, options));
};

export function headerText(value: string): string {
  const line = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(line) ? line : `=?UTF-8?B?${Buffer.from(line).toString('base64')}?=`;
}
