import { post } from '../http.js';
import { outcomeOf, type Sender } from './outcome.js';

/** Discord's webhook (discord://WEBHOOK_ID/WEBHOOK_TOKEN, as Apprise names it): the title in bold, then the body. */
export function discordWebhook(url: URL): URL {
  const token = url.pathname.split('/').filter(Boolean)[0] ?? '';
  return new URL(`https://discord.com/api/webhooks/${encodeURIComponent(url.hostname)}/${encodeURIComponent(token)}`);
}

export const sendDiscord: Sender = async (target, message, options) => {
  const content = `**${message.title}**\n${message.body}`.slice(0, 2000); // Discord's limit for content
  return outcomeOf(await post(discordWebhook(target.url), { 'content-type': 'application/json' }, JSON.stringify({ content }), options));
};
