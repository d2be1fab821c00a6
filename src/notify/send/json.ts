import { post } from '../http.js';
import type { Message } from '../messages.js';
import { basicAuth, httpUrl, outcomeOf, type Sender } from './outcome.js';

/**
 * Apprise's JSON notification (its json:// plugin, NotifyJSON.py): a POST of this body, key for key, so that a
 * receiver written for Apprise takes lk's. lk sends no attachment: the list is empty.
 */
export function appriseJsonBody(message: Message): { version: string; title: string; message: string; attachments: never[]; type: string } {
  return { version: '1.0', title: message.title, message: message.body, attachments: [], type: 'info' };
}

export const sendJson: Sender = async (target, message, options) => {
  const headers = { ...basicAuth(target.url), 'content-type': 'application/json' };
  return outcomeOf(await post(httpUrl(target.url, target.scheme === 'jsons'), headers, JSON.stringify(appriseJsonBody(message)), options));
};
