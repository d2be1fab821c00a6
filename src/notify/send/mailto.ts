import { isLoopbackHost } from '../../util/loopback.js';
import { mailProvider } from '../mail-providers.js';
import type { Sender } from './outcome.js';

/**
 * E-mail through nodemailer (loaded by the run that mails, in a file of its own: scripts/build.mjs). `mailto://`
 * upgrades with STARTTLS when the server offers it (port 587 unless named); `mailtos://` is TLS from the start (465).
 * A password goes in clear to loopback only (a local relay): elsewhere a server that offers no STARTTLS is refused.
 * From: `from=` or the user (with the host when the user is no address); To: `to=`, else the sender.
 */
export const sendMail: Sender = async (target, message, options) => {
  const { createTransport } = await import('nodemailer');
  const { url } = target;
  // Apprise's form for a big provider (mailto://user:pass@gmail.com): its server, the login the whole address.
  const provider = mailProvider(url.hostname, url.port);
  const secure = provider ? provider.secure : target.scheme === 'mailtos';
  const named = decodeURIComponent(url.username);
  const user = provider && named !== '' && !named.includes('@') ? `${named}@${url.hostname}` : named;
  const from = url.searchParams.get('from') ?? (user.includes('@') ? user : `${user || 'lk'}@${url.hostname}`);
  const to = url.searchParams.get('to') ?? from;
  const needsTls = !secure && user !== '' && !isLoopbackHost(url.hostname);
  const transport = createTransport({
    host: provider?.smtpHost ?? url.hostname,
    port: provider?.port ?? (url.port === '' ? (secure ? 465 : 587) : Number(url.port)),
    secure,
    requireTLS: needsTls,
    auth: user === '' ? undefined : { user, pass: decodeURIComponent(url.password) },
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    ...(options.ca ? { tls: { ca: options.ca } } : {}),
  });
  try {
    await transport.sendMail({ from, to, text: message.body, headers: { subject: { prepared: true, value: foldedSubject(message.title) } } });
    return { ok: true };
  } catch (error) {
    const text = (error as Error).message;
    if (needsTls && /STARTTLS/i.test(text)) {
      return {
        ok: false,
        error:
          'the server offers no STARTTLS, and lk sends a password in clear only to loopback: use mailtos:// (TLS from the start) or a server with STARTTLS',
      };
    }
    // A permanent refusal of the message after DATA (a line too long, a size): that message, not the server.
    const { responseCode, command } = error as { responseCode?: number; command?: string };
    if (responseCode === undefined) throw error; // no answer of the server's: the run words it (a certificate, a timeout)
    return { ok: false, error: text, content: responseCode !== undefined && responseCode >= 500 && /^(DATA|message)$/i.test(command ?? '') };
  } finally {
    transport.close();
  }
};

/** What an encoded word holds at most: 45 bytes are 60 base64 characters, a word of 72 with its =?UTF-8?B?…?=. */
const WORD_BYTES = 45;

/**
 * The Subject as it goes on the wire (RFC 5322 lines of at most 998 characters, 78 advised): a short printable ASCII
 * title as it is; any other as RFC 2047 encoded words, one per folded line, never splitting a character.
 */
export function foldedSubject(title: string): string {
  const line = title.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(line) && line.length <= 78 - 'Subject: '.length) return line;
  const words: string[] = [];
  let bytes: Buffer[] = [];
  let size = 0;
  for (const char of line) {
    const piece = Buffer.from(char);
    if (size + piece.length > WORD_BYTES) {
      words.push(encodedWord(bytes));
      bytes = [];
      size = 0;
    }
    bytes.push(piece);
    size += piece.length;
  }
  if (bytes.length > 0) words.push(encodedWord(bytes));
  return words.join('\r\n ');
}

const encodedWord = (bytes: Buffer[]) => `=?UTF-8?B?${Buffer.concat(bytes).toString('base64')}?=`;
