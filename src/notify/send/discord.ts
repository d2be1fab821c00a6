import { post } from '../http.js';
import type { Message } from '../messages.js';
import { capChars } from './cap.js';
import { outcomeOf, type Sender } from './outcome.js';

/** Discord's webhook (discord://WEBHOOK_ID/WEBHOOK_TOKEN, or with a trailing slash, as Apprise names it). */
export function discordWebhook(url: URL): URL {
  const token = url.pathname.split('/').filter(Boolean)[0] ?? '';
  return new URL(`https://discord.com/api/webhooks/${encodeURIComponent(url.hostname)}/${encodeURIComponent(token)}`);
}

/** What Discord takes in a message's content. */
const DISCORD_MAX_CHARS = 2000;

/**
 * The webhook's JSON: the title in bold, then the body, within Discord's 2000 characters (an ellipsis where cut).
 * Nobody is pinged: the text is the server's, and an @everyone or a role in it stays text (allowed_mentions).
 */
export function discordBody(message: Message): { content: string; allowed_mentions: { parse: string[] } } {
  return { content: capChars(`**${message.title}**\n${message.body}`, DISCORD_MAX_CHARS), allowed_mentions: { parse: [] } };
}

export const sendDiscord: Sender = async (target, message, options) =>
  outcomeOf(await post(discordWebhook(target.url), { 'content-type': 'application/json' }, JSON.stringify(discordBody(message)), options));
