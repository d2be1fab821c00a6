import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the server received it: who logged in, the envelope, the raw message, and whether it came over TLS. */
export interface ReceivedMail {
  user: string | undefined;
  password: string | undefined;
  from: string;
  to: string[];
  raw: string;
  tls: boolean;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  /** Every login tried, taken or not: a password sent in clear shows here. */
  logins: Array<{ user: string; password: string; tls: boolean }>;
  close(): Promise<void>;
}

/** RFC 5321's limit on a line of a mail (998 characters and CRLF), which real servers enforce: `500 Line too long`. */
const MAX_LINE = 998;

/**
 * A real SMTP server (the smtp-server package) keeping every mail lk notify's mailto:// sends, on loopback unless
 * `host` names another address of this machine. Plain text with no STARTTLS offered, unless `tls` gives a
 * certificate: then TLS from the start (`secure`, mailtos://) or offered with STARTTLS. A mail with a line over 998
 * characters is refused after DATA, as real servers refuse it.
 */
export async function startSmtp(tls?: { key: string | Buffer; cert: string | Buffer; secure: boolean }, host = '127.0.0.1'): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const logins: SmtpReceiver['logins'] = [];
  const auths = new Map<string, { user: string; password: string }>();
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    // smtp-server looks up each client's address in the DNS before it greets it: a query to the machine's resolver
    // (tests talk to loopback only) and up to 1.5 s of waiting per connection where the resolver does not answer.
    disableReverseLookup: true,
    ...(tls ? { secure: tls.secure, key: tls.key, cert: tls.cert } : { allowInsecureAuth: true, disabledCommands: ['STARTTLS'] }),
    onAuth(auth, session, callback) {
      auths.set(session.id, { user: auth.username ?? '', password: auth.password ?? '' });
      logins.push({ user: auth.username ?? '', password: auth.password ?? '', tls: session.secure });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        if (raw.split(/\r?\n/).some((line) => line.length > MAX_LINE)) {
          return callback(Object.assign(new Error('Line too long'), { responseCode: 500 }));
        }
        const auth = auths.get(session.id);
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        mails.push({ user: auth?.user, password: auth?.password, from, to, raw, tls: session.secure });
        callback();
      });
    },
  });
  server.on('error', () => {}); // a client that refuses the certificate hangs up: not the test's failure
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
