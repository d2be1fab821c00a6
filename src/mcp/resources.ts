import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType,
} from '@modelcontextprotocol/server';
import { schemaTables } from '../mirror/read.js';
import { yearInReview } from '../readings/composed.js';
import { readEntry } from './entry.js';
import type { McpMirror, ToolHost } from './mirror.js';
import { readStatusOf } from './overview-tools.js';
import { readView } from './views.js';

/**
 * lk mcp's resources, what a host attaches whole: lk://status (lk status --json --offline), lk://entry/{id} (an entry
 * and its history), lk://report/{year} (lk report --json --year) and lk://schema (the mirror's tables, as lk sql
 * --schema lists them). Each is the same reading as its command's, from the same mirror. The views (ui://lk/status,
 * ui://lk/year/{year}) are read here too: views.ts.
 */

const JSON_TYPE = 'application/json';

export const RESOURCES: Resource[] = [
  {
    uri: 'lk://status',
    name: 'status',
    title: 'What is going on',
    description: 'lk status --json --offline: in progress, activity, airing this week, notifications, the mirror.',
    mimeType: JSON_TYPE,
  },
  {
    uri: 'lk://schema',
    name: 'schema',
    title: "The mirror's tables",
    description: 'Every table and view of the mirror lk sql --schema lists (the full-text ones too), with its columns: what the sql tool can read.',
    mimeType: JSON_TYPE,
  },
];

export const TEMPLATES: ResourceTemplateType[] = [
  {
    uriTemplate: 'lk://entry/{id}',
    name: 'entry',
    title: 'A library entry with its history',
    description: '{ "entry": …, "history": [...] }: the entry as the API gives it and its events in its order (the undated last).',
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: 'lk://report/{year}',
    name: 'report',
    title: 'A year in review',
    description: "lk report --json --year: the year's figures, from the mirror.",
    mimeType: JSON_TYPE,
  },
];

export async function readResource(uri: string, host: ToolHost, mirror: McpMirror): Promise<ReadResourceResult> {
  const view = await readView(uri, host, mirror);
  if (view) return view;
  const value = await resourceValue(uri, host, mirror);
  return { contents: [{ uri, mimeType: JSON_TYPE, text: `${JSON.stringify(value, null, 2)}\n` }] };
}

async function resourceValue(uri: string, host: ToolHost, mirror: McpMirror): Promise<unknown> {
  if (uri === 'lk://status') return (await readStatusOf(mirror)).status;
  if (uri === 'lk://schema') return { tables: mirror.read(schemaTables) };
  const entry = /^lk:\/\/entry\/(.+)$/.exec(uri);
  if (entry) {
    const id = decodeURIComponent(entry[1]!);
    const found = await readEntry(host, mirror, id);
    if (found === undefined) throw notFound(uri, `no library entry ${id} in the mirror (lk sync brings new entries)`);
    return { entry: found.entry, history: found.history };
  }
  const report = /^lk:\/\/report\/(.*)$/.exec(uri);
  if (report) return yearReport(uri, report[1]!, mirror);
  throw notFound(uri, `no resource ${uri}: lk has lk://status, lk://schema, lk://entry/{id} and lk://report/{year}`);
}

async function yearReport(uri: string, year: string, mirror: McpMirror) {
  if (!/^\d{4}$/.test(year))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri}: the year is four digits, e.g. lk://report/2025`, { uri });
  const review = await yearInReview(mirror.readings, { year });
  if (review.empty) throw notFound(uri, `nothing to review: the mirror holds no dated event and no finished work in ${year}`);
  return review.figures;
}

/**
 * A resource that is not there: the SDK's ResourceNotFoundError, -32602 with the uri as its data. Issue 49 asked for
 * -32002, the code of the earlier revisions; the 2026-07-28 revision requires -32602, and the SDK sends that on both
 * (it rewrites -32002), asking clients to read either as "not found".
 */
const notFound = (uri: string, message: string) => new ResourceNotFoundError(uri, message);
