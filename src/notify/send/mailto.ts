import type { Sender } from './outcome.js';

/**
 * E-mail through nodemailer (loaded by the run that mails, in a file of its own: scripts/build.mjs). `mailto://`
 * upgrades with STARTTLS when the server offers it (port 587 unless named); `mailtos://` is TLS from the start (465).
 * From: `from=` or the user (with the host when the user is no address); To: `to=`, else the sender.
 */
export const sendMail: Sender = async (target, message, options) => {
  const { createTransport } = await import('nodemailer');
  const { url } = target;
  const secure = target.scheme === 'mailtos';
  const user = decodeURIComponent(url.username);
  const from = url.searchParams.get('from') ?? (user.includes('@') ? user : `${user || 'lk'}@${url.hostname}`);
  const to = url.searchParams.get('to') ?? from;
  const transport = createTransport({
    host: url.hostname,
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    auth: user === '' ? undefined : { user, pass: decodeURIComponent(url.password) },
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    ...(options.ca ? { tls: { ca: options.ca } } : {}),
  });
  try {
    await transport.sendMail({ from, to, subject: message.title, text: message.body });
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    transport.close();
  }
};
