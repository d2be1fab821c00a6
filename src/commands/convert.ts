import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { TEXT } from '../output/shape.js';
import { exportCacheIn } from '../export/cache.js';
import type { Context } from '../context.js';
import { LkError, UsageError } from '../util/errors.js';
import { document, type Document } from '../output/result.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { DOMAINS } from '../api/vocabulary.js';
import type { DateValue } from './flag-values.js';
import { mirrorPath } from '../config/paths.js';
import { except, REQUESTS } from './uses.js';
import { exportAccount, obtainExport } from '../export/obtain.js';
import * as lib from '../convert/index.js';
import * as sources from '../convert/sources.js';

const TARGETS = ['letterboxd', 'goodreads', 'yamtrack', 'mal'] as const;
type Target = (typeof TARGETS)[number];
const TARGET_DOMAIN: Record<Target, string | undefined> = { letterboxd: 'MEDIA', goodreads: 'BOOKS', yamtrack: undefined, mal: 'MEDIA' };

const CONVERT_FLAGS = {
  output: flag.text('-o, --output <file>', 'write this file (whole or not at all); Letterboxd over 1 MB: FILE-1.csv, FILE-2.csv, …'),
  since: flag.date('--since <date>', 'only activity since then: a local date (2026-01-31), a moment (ISO 8601), 7d, 2w, 12h, today', 'start'),
  // choices() for help and completion; the parser after it replaces commander's check with runConvert's (any case).
  domain: flag.custom<string | undefined>(() =>
    new Option('--domain <domain>', 'only this domain (yamtrack holds all four)').choices(DOMAINS).argParser((value: string) => value),
  ),
  strict: flag.toggle('--strict', 'exit 1 when any row was skipped, set aside, guessed or matched by title'),
  ratingScale: flag.custom<string | undefined>(() =>
    new Option('--rating-scale <n>', "the instance's rating scale (default: found from the ratings)")
      .choices(['5', '10', '100'])
      .argParser((value: string) => value),
  ),
  db: flag.text('--db <file>', "read this lk sync mirror (default: the profile's mirror when it exists, else the export)"),
};
type ConvertFlags = OptionsOf<typeof CONVERT_FLAGS>;

/** `lk convert TARGET`: files other services import. */
const convertCommand = defineCommand({
  name: 'convert',
  uses: except(REQUESTS, { cache: 'the export has its own cache' }),
  description: 'write files other services import: Letterboxd, Goodreads/StoryGraph, Yamtrack, MyAnimeList',
  output: TEXT,
  operands: [operand('<target>', 'the service to write for', { shownChoices: TARGETS })],
  flags: CONVERT_FLAGS,
  help: `
Reads the mirror of lk sync when there is one, else the export (cached: one request an hour). A summary on stderr
says how many rows were written, which were skipped and why, and which rating scale was read. Rows the importer
would fail on or drop silently are kept out of the file: with -o FILE they go to FILE-unmatched.csv, for a manual
pass (written even when nothing else could be). Exit 1 when no row could be written (FILE is not written then),
and with --strict when any row was skipped, set aside, guessed or can only be matched by title.
  letterboxd  films: one diary row per dated watch; upload at https://letterboxd.com/import/
  goodreads   books; import at https://www.goodreads.com/review/import (StoryGraph, Hardcover, BookWyrm too)
  yamtrack    films, series, anime, games, books; Yamtrack → Settings → Import → Yamtrack CSV
  mal         anime with a MyAnimeList id; https://myanimelist.net/import.php (AniList, Kitsu import it too)
`,
  examples: [
    'lk convert letterboxd -o letterboxd.csv',
    'lk convert goodreads -o goodreads.csv --since 2026-01-01',
    'lk convert yamtrack --domain GAMES > games.csv',
    'lk convert mal -o animelist.xml --strict',
  ],
  run: (ctx, _out, flags, [target]) => runConvert(ctx, flags, target),
});

export function registerConvert(program: Command): void {
  addCommand(program, convertCommand);
}

function parseTarget(raw: string | undefined): Target {
  const target = TARGETS.find((name) => name === raw?.toLowerCase());
  if (!target) throw new UsageError(`unknown convert target "${raw ?? ''}": expected one of ${TARGETS.join(', ')}`);
  return target;
}

/** A day is its local midnight (WatchedDate and Date Read are local days too); a date-time is that moment. */
function parseSince(since: DateValue | undefined, now: number): number | undefined {
  if (since === undefined) return undefined;
  const checked = since.at(now);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(checked);
  return day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime() : Date.parse(checked);
}

function parseScale(raw: string | undefined): 5 | 10 | 100 | undefined {
  if (raw === undefined) return undefined;
  if (raw === '5' || raw === '10' || raw === '100') return Number(raw) as 5 | 10 | 100;
  throw new UsageError(`invalid --rating-scale "${raw}": expected 5, 10 or 100`);
}

function parseDomain(raw: string | undefined, target: Target): (typeof DOMAINS)[number] | undefined {
  if (raw === undefined) return undefined;
  const domain = DOMAINS.find((name) => name === raw.toUpperCase());
  if (!domain) throw new UsageError(`invalid --domain "${raw}": expected one of ${DOMAINS.join(', ')}`);
  const holds = TARGET_DOMAIN[target];
  if (holds !== undefined && holds !== domain)
    throw new UsageError(`${target} holds ${holds} only, not ${domain}`, 'Use lk convert yamtrack for any domain.');
  return domain;
}

async function runConvert(ctx: Context, flags: ConvertFlags, rawTarget: string): Promise<Document> {
  // Every flag is checked before the first request: a typo must not spend the export hour.
  const target = parseTarget(rawTarget);
  const since = parseSince(flags.since, ctx.now());
  const ratingScale = parseScale(flags.ratingScale);
  const domain = parseDomain(flags.domain, target);
  if (flags.db === '') throw new UsageError('--db needs a path');
  const extension = lib.TARGET_EXTENSION[target];
  return document({
    format: extension,
    async make(to) {
      const { snapshot, account } = await loadSnapshot(ctx, flags.db);
      let result;
      try {
        result = lib.convert(target, snapshot, { since, domain, ratingScale, account, timeZone: undefined });
      } catch (error) {
        if (error instanceof lib.ScaleError)
          throw new LkError(error.message, 1, 'Say which scale the instance uses with --rating-scale 5, 10 or 100.');
        throw error;
      }
      const output = to.to === 'file' ? to.path : undefined;
      const unmatchedFile = output !== undefined && result.unmatched !== undefined ? unmatchedPath(output, extension) : undefined;
      const summary = lib.summaryLines(result, unmatchedFile);
      const unmatched = unmatchedFile === undefined ? [] : [{ path: unmatchedFile, data: result.unmatched! }];
      if (result.tally.rowsWritten === 0) {
        // The rows set aside are the whole result then: the file for a manual pass is all there is to give.
        const failed = async () => {
          for (const line of summary) ctx.io.warn(line);
          throw new LkError(`nothing to write for ${target}: no row could be written`, 1, 'The summary above says what was left out and why.');
        };
        return { beside: unmatched, said: () => [], after: failed };
      }
      const { files } = result;
      if (output === undefined && files.length > 1) {
        throw new LkError(
          `the ${target} file would be over Letterboxd's 1 MB import limit (${files.length} files): nothing was written`,
          1,
          `Use -o FILE: lk writes FILE-1.csv … FILE-${files.length}.csv, each under 1 MB with its header.`,
        );
      }
      // One file is the output itself; Letterboxd's parts are FILE-1.csv, FILE-2.csv, … beside it.
      const parts = files.length > 1 ? files.map((file, index) => ({ path: numberedPath(output!, index + 1, extension), data: file.content })) : [];
      const wrote = parts.length > 0 ? parts.map((part) => part.path) : [output];
      const uncertain = result.tally.rowsNotCertain;
      return {
        data: parts.length === 0 ? files[0]!.content : undefined,
        beside: [...parts, ...unmatched],
        said: ({ to: where }) =>
          where === 'files' ? [...summary, `lk: wrote ${wrote.join(', ')}`, ...staleNotes(output!, files.length, unmatchedFile, extension)] : summary,
        after: async () => {
          if (flags.strict && uncertain > 0) {
            throw new LkError(`--strict: ${uncertain} rows skipped, set aside, guessed or matched by title (see the summary above)`);
          }
        },
      };
    },
  });
}

/** A file of an earlier, longer conversion is not part of this one: said, rather than let it be uploaded twice. */
function staleNotes(output: string, parts: number, unmatchedFile: string | undefined, extension: string): string[] {
  const stale = [numberedPath(output, parts + 1, extension)];
  if (unmatchedFile === undefined) stale.push(unmatchedPath(output, extension));
  return stale.filter((path) => existsSync(path)).map((path) => `lk: note: ${path} is from an earlier conversion, not this one`);
}

/** films.csv → films-2.csv; films → films-2.csv. */
export function numberedPath(path: string, part: number, extension: string): string {
  const match = new RegExp(`\\.${extension}$`, 'i').exec(path);
  return match ? `${path.slice(0, match.index)}-${part}${match[0]}` : `${path}-${part}.${extension}`;
}

/** yamtrack.csv → yamtrack-unmatched.csv; anime.xml → anime-unmatched.csv (the rows for a manual pass are CSV). */
export function unmatchedPath(path: string, extension: string): string {
  const match = new RegExp(`\\.${extension}$`, 'i').exec(path);
  return `${match ? path.slice(0, match.index) : path}-unmatched.csv`;
}

/** The mirror (--db, or the profile's when it exists and this Node can read it), else the export, cached as lk export caches it. */
async function loadSnapshot(ctx: Context, db: string | undefined) {
  const mirror = db ?? mirrorPath(ctx.env, ctx.settings.profileName);
  if (db !== undefined || sources.mirrorExists(mirror)) {
    if (db !== undefined && !sources.mirrorExists(db))
      throw new LkError(`no mirror at ${db}`, 1, 'Create it with lk sync --db FILE, or leave out --db to use the export.');
    try {
      const snapshot = sources.readMirror(mirror);
      ctx.io.info(`lk: reading the mirror ${mirror}`);
      return { snapshot, account: undefined };
    } catch (error) {
      if (!(error instanceof sources.MirrorUnavailable)) throw error;
      if (db !== undefined) throw new LkError(error.message, 1, error.hint ?? 'Name a mirror lk sync wrote, or leave out --db to use the export.');
      ctx.io.info(`lk: not using the mirror: ${error.message}; reading the export instead`);
    }
  }
  const client = await ctx.client();
  const cache = exportCacheIn(ctx.usableCacheDir(), ctx.instance().baseUrl);
  const account = await exportAccount(client, (await ctx.key()).key);
  const exported = await obtainExport(
    { client, cache, account, io: ctx.io, now: ctx.now, wait: ctx.waiter(), signal: ctx.signal },
    { fresh: false, maxAgeMs: undefined, maxWaitSeconds: undefined },
  );
  return { snapshot: sources.snapshotFromExport(exported.json), account: sources.exportAccountName(exported.json) ?? account };
}
