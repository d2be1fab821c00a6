import { post } from '../http.js';
import type { Message } from '../messages.js';
import { outcomeOf, type Sender } from './outcome.js';

/** Discord's webhook (discord://WEBHOOK_ID/WEBHOOK_TOKEN, as Apprise names it). */
export function discordWebhook(url: URL): URL {
  const token = url.pathname.split('/').filter(Boolean)[0] ?? '';
  return new URL(`https://discord.com/api/webhooks/${encodeURIComponent(url.hostname)}/${encodeURIComponent(token)}`);
}

/** The webhook's JSON: the title in bold, then the body, within Discord's 2000 characters of content. */
export function discordBody(message: Message): { content: string } {
  return { content: `**${message.title}**\n${message.body}`.slice(0, 2000) };
}

export const sendDiscord: Sender = async (target, message, options) =>
  outcomeOf(await post(discordWebhook(target.url), { 'content-type': 'application/json' }, JSON.stringify(discordBody(message)), options));
