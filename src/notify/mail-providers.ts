/**
 * Apprise's mail forms for the big providers (its NotifyEmail templates): `mailto://user:pass@gmail.com` sends as
 * user@gmail.com, to that address, through the provider's SMTP server, with TLS. Only the ones that need no more.
 */
export interface MailProvider {
  smtpHost: string;
  port: number;
  /** TLS from the start (465); else STARTTLS. */
  secure: boolean;
}

const PROVIDERS: Array<[RegExp, MailProvider]> = [
  [/^(gmail|googlemail)\.com$/, { smtpHost: 'smtp.gmail.com', port: 587, secure: false }],
  [/^(hotmail|live)\.com(\.au)?$/, { smtpHost: 'smtp-mail.outlook.com', port: 587, secure: false }],
  [/^outlook\.com(\.au)?$/, { smtpHost: 'smtp.outlook.com', port: 587, secure: false }],
  [/^yahoo\.(ca|com)$/, { smtpHost: 'smtp.mail.yahoo.com', port: 465, secure: true }],
  [/^fastmail\.(com|fm)$/, { smtpHost: 'smtp.fastmail.com', port: 465, secure: true }],
];

/** The provider a mailto:// host names (with no port given), if it is one of those. */
export function mailProvider(host: string, port = ''): MailProvider | undefined {
  if (port !== '') return undefined;
  return PROVIDERS.find(([domain]) => domain.test(host.toLowerCase()))?.[1];
}
