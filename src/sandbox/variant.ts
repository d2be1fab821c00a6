/**
 * `variant: 'alt'`: the same data dressed as a second, independent implementation of the API (docs/api.md) would send it. docs/api.md
 * fixes few field names; this variant makes every other choice differently (see README.md, "The alt variant"), so
 * that the client's views are proven on data they were not written for. Applied to each JSON body on its way out,
 * and to the ids of a request's path on their way in; the data itself is the default variant's.
 */
import { createHash } from 'node:crypto';

export type Variant = 'default' | 'alt';

export const VARIANTS: readonly Variant[] = ['default', 'alt'];

type Json = Record<string, unknown>;

/** Fields that carry an id of the sandbox's own, rewritten as UUIDs. */
const ID_FIELDS = new Set(['id', 'entryId', 'workId']);

export class AltVariant {
  private readonly original = new Map<string, string>();

  /** A stable UUID (36 characters) for a sandbox id; remembered, so that a request can name it. */
  uuid(id: string): string {
    const hex = createHash('sha256').update(`lk-sandbox-alt:${id}`).digest('hex');
    const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    this.original.set(uuid, id);
    return uuid;
  }

  /** The sandbox id behind a UUID of a request's path (anything else as it is: it will not be found). */
  idIn(segment: string): string {
    return this.original.get(segment.toLowerCase()) ?? segment;
  }

  /** A response body as the alt server sends it, by the route that produced it. */
  body(route: string, body: unknown): unknown {
    const rewritten = this.ids(body);
    if (route === 'export') return rewritten;
    if (isEnvelope(rewritten)) return { ...rewritten, items: rewritten.items.map((item) => this.item(route, item)) };
    if (route === 'calendar' && rewritten && typeof rewritten === 'object' && Array.isArray((rewritten as Json).items)) {
      return { ...(rewritten as Json), items: ((rewritten as Json).items as unknown[]).map((item) => this.item(route, item)) };
    }
    return this.item(route, rewritten);
  }

  /** An item of the export: the default variant's fields, with UUID ids as the pages have them. */
  exportItem(item: unknown): unknown {
    return this.ids(item);
  }

  private ids(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.ids(item));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [key, ID_FIELDS.has(key) && typeof field === 'string' ? this.uuid(field) : this.ids(field)]),
    );
  }

  private item(route: string, value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    const item = { ...(value as Json) };
    switch (route) {
      case 'library':
      case 'library entry':
        return entry(item);
      case 'history':
      case 'library entry history':
        return rename(item, { kind: 'type' });
      case 'lists':
      case 'list': {
        const out = rename(item, { name: 'title', itemCount: 'itemsCount' });
        out.owner = { username: item.owner, displayName: String(item.owner) };
        if (Array.isArray(out.items))
          out.items = out.items.map((listed) =>
            listed && typeof listed === 'object' ? { ...(listed as Json), work: work((listed as Json).work) } : listed,
          );
        return out;
      }
      case 'reviews':
        return { ...rename(item, { title: 'headline', createdAt: 'publishedAt' }), work: work(item.work) };
      case 'notifications': {
        const out = rename(item, { kind: 'type', message: 'body' });
        delete out.read;
        out.readAt = item.read ? item.createdAt : null;
        return out;
      }
      case 'calendar':
        return rename(item, { airsAt: 'airDate' });
      case 'achievements':
        return rename(item, { name: 'title' });
      case 'me': {
        const rate = item.rateLimit as Json | undefined;
        return { ...item, rateLimit: rate ? { limit: rate.limit, remaining: rate.remaining, resetSeconds: rate.reset } : rate };
      }
      default:
        return item;
    }
  }
}

/** An entry without `phase` (a client derives it from the status, docs/api.md, Statuses and phases), with `addedAt` and its work's `mediaType`. */
function entry(item: Json): Json {
  const out: Json = { ...item, work: work(item.work) };
  delete out.phase;
  const dates = item.dates as Json | undefined;
  delete out.dates;
  out.addedAt = dates?.added ?? null;
  out.finishedAt = dates?.finished ?? null;
  const progress = item.progress as Json | null | undefined;
  if (progress && typeof progress === 'object') {
    if (typeof progress.minutes === 'number') out.progress = { current: progress.minutes, unit: 'minutes' };
    else if (typeof progress.episodes === 'number') out.progress = { current: progress.episodes, total: progress.total, unit: 'episodes' };
    else if (typeof progress.pages === 'number') out.progress = { current: progress.pages, total: progress.total, unit: 'pages' };
  }
  return out;
}

function work(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return rename(value as Json, { type: 'mediaType' });
}

function rename(item: Json, names: Record<string, string>): Json {
  return Object.fromEntries(Object.entries(item).map(([key, value]) => [names[key] ?? key, value]));
}

function isEnvelope(value: unknown): value is Json & { items: unknown[] } {
  return value !== null && typeof value === 'object' && Array.isArray((value as Json).items) && typeof (value as Json).hasMore === 'boolean';
}
