import type { Colors } from '../terminal/colors.js';
import { formatterFor } from '../formats/formatters.js';
import { renderSingle } from '../formats/render.js';
import { sanitizeText } from '../terminal/sanitize.js';
import type { OutputSession } from '../session.js';
import { rateLimitText } from './account.js';

/** One profile as `lk auth status --json` reports it: the same keys every time, null where unknown. */
export interface ProfileReport {
  profile: string;
  active: boolean;
  baseUrl: string | null;
  baseUrlSource: string | null;
  account: string | null;
  key: string | null;
  /** Where the key came from (config/resolve.ts KeySource: LK_API_KEY, LK_API_KEY_FILE, config or keyring). */
  keySource: string | null;
  keyOrigin: string | null;
  scopes: unknown[] | null;
  /** The server's expiry date; null when it never expires or did not say (see `expiry`). */
  expiresAt: string | null;
  expiry: 'never' | 'unknown' | 'valid' | 'soon' | 'expired' | null;
  expiresInDays: number | null;
  rateLimit: unknown;
  /** ok; refused (401); not-logged-in (no key or no instance); error (anything else: unreachable, malformed key…). */
  status: 'ok' | 'refused' | 'not-logged-in' | 'error';
  error: string | null;
}

/**
 * `lk auth status`: a block of lines per profile on a terminal (and in a pipe); with --json the active profile's
 * report with every profile's under `profiles`; a row per profile in ndjson, csv and tsv.
 */
export async function writeProfileStatus(reports: ProfileReport[], configFile: string, out: OutputSession): Promise<void> {
  const output = await out.outputOptions();
  if (output.format === 'table' || output.format === 'plain') await out.io.write(statusTable(reports, configFile, output.display.colors));
  else if (output.format === 'json') await renderSingle({ ...reports[0], profiles: reports }, undefined, output);
  else {
    const writer = (await formatterFor(output.format)).listing({ noun: ['profile', 'profiles'], columns: [] }, output);
    await writer.write(reports);
    await writer.end();
  }
}

function statusTable(reports: ProfileReport[], configFile: string, colors: Colors): string {
  // Every piece from the server or the config is defused first; colour codes are added after, so that they survive.
  const text = (value: unknown): string => sanitizeText(value === undefined || value === null ? '' : String(value));
  const blocks = reports.map((report) => {
    const baseUrlOrigin = report.baseUrlSource === 'profile' ? configFile : report.baseUrlSource;
    const keyOrigin = report.keySource === 'LK_API_KEY' ? 'LK_API_KEY' : report.keyOrigin;
    const expires =
      report.expiry === 'never'
        ? 'never'
        : report.expiry === 'unknown'
          ? colors.dim('unknown (not reported by the server)')
          : report.expiry === 'soon'
            ? colors.yellow(`${text(report.expiresAt)} (in ${report.expiresInDays} day${report.expiresInDays === 1 ? '' : 's'})`)
            : report.expiry === 'expired'
              ? colors.red(`${text(report.expiresAt)} (expired)`)
              : text(report.expiresAt);
    const lines: Array<[string, string]> = [
      ['Profile', `${text(report.profile)}${reports.length > 1 && report.active ? ` ${colors.dim('(active)')}` : ''}`],
      ['Instance', report.baseUrl === null ? colors.dim('none') : `${text(report.baseUrl)} ${colors.dim(`(from ${text(baseUrlOrigin)})`)}`],
      ['Account', text(report.account)],
      ['Key', report.key === null ? colors.dim('none') : `${text(report.key)} ${colors.dim(`(from ${text(keyOrigin)})`)}`],
    ];
    if (report.status === 'ok') {
      lines.push(
        ['Scopes', text(report.scopes?.map(String).join(', '))],
        ['Expires', expires],
        ['Rate limit', text(rateLimitText(report.rateLimit))],
      );
    } else {
      const label = report.status === 'refused' ? 'refused' : report.status === 'not-logged-in' ? 'not logged in' : 'error';
      lines.push(['Status', colors.red(text(`${label}: ${report.error}`))]);
    }
    return lines.map(([label, value]) => `${colors.bold(label.padEnd(11))}${value}\n`).join('');
  });
  return blocks.join('\n');
}
