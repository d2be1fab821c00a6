/**
 * The admin routes: a running sandbox's data changed over HTTP (README.md, "Changing the data"), so that `lk diff`,
 * `lk export --git`, `lk notify` or `--fresh` can be tried by hand. They live under /_sandbox, outside the API's /v1,
 * take no API key, count in no counter or budget and see no fault. Only loopback clients are answered, and only a
 * POST with a JSON body: a web page cannot send one without a CORS preflight, which the sandbox never grants.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError, MutationRefused } from './errors.js';
import { EVENT_KINDS, type EventKind, type ExtraField, type ListRecord } from './model.js';
import type { SandboxMutations } from './mutations.js';

export const ADMIN_PREFIX = '/_sandbox';

const MAX_BODY_BYTES = 64 * 1024;

type Body = Record<string, unknown>;

interface AdminRoute {
  pattern: RegExp;
  /** What it does, for GET /_sandbox. */
  usage: string;
  act(mutations: SandboxMutations, account: string, body: Body, ids: string[]): { status: number; body: Body };
}

const ENTRY = '([^/]+)';

const ROUTES: AdminRoute[] = [
  {
    pattern: /^\/_sandbox\/entries$/,
    usage: 'POST /_sandbox/entries {"count": n}: n new planned entries, the newest',
    act(mutations, account, body) {
      const count = wholeNumber(body, 'count', 1, 1000);
      mutations.addEntries(account, count);
      return { status: 201, body: { ids: mutations.entryIds(account).slice(0, count) } };
    },
  },
  {
    pattern: new RegExp(`^/_sandbox/entries/${ENTRY}/events$`),
    usage: `POST /_sandbox/entries/{id}/events {"kind"?: one of ${EVENT_KINDS.join(', ')}}: a dated event now (default FILM_SEEN, 90 minutes)`,
    act(mutations, account, body, [id]) {
      const kind = body.kind ?? 'FILM_SEEN';
      if (typeof kind !== 'string' || !(EVENT_KINDS as readonly string[]).includes(kind)) throw badField('kind', `one of ${EVENT_KINDS.join(', ')}`);
      return { status: 201, body: { id: mutations.addEvent(account, id!, kind as EventKind) } };
    },
  },
  {
    pattern: new RegExp(`^/_sandbox/entries/${ENTRY}/rate$`),
    usage: 'POST /_sandbox/entries/{id}/rate {"rating": 1-10 or null}',
    act(mutations, account, body, [id]) {
      const rating = body.rating === null ? null : wholeNumber(body, 'rating', 1, 10);
      mutations.rateEntry(account, id!, rating);
      return { status: 200, body: { id: id!, rating } };
    },
  },
  {
    pattern: new RegExp(`^/_sandbox/entries/${ENTRY}/note$`),
    usage: 'POST /_sandbox/entries/{id}/note {"notes": text or null}',
    act(mutations, account, body, [id]) {
      if (body.notes !== null && typeof body.notes !== 'string') throw badField('notes', 'a string or null');
      mutations.noteEntry(account, id!, body.notes);
      return { status: 200, body: { id: id!, notes: body.notes } };
    },
  },
  {
    pattern: new RegExp(`^/_sandbox/entries/${ENTRY}/remove$`),
    usage: 'POST /_sandbox/entries/{id}/remove: the entry and its reviews go',
    act(mutations, account, _body, [id]) {
      mutations.removeEntry(account, id!);
      return { status: 200, body: { removed: id! } };
    },
  },
  {
    pattern: new RegExp(`^/_sandbox/entries/${ENTRY}/review$`),
    usage:
      'POST /_sandbox/entries/{id}/review {"title": text, "body": text, "spoiler"?: true or false, "fields"?: {member: value}}: a review, the newest',
    act(mutations, account, body, [id]) {
      if (body.spoiler !== undefined && typeof body.spoiler !== 'boolean') throw badField('spoiler', 'true or false');
      const review = { title: text(body, 'title'), body: text(body, 'body'), spoiler: body.spoiler, fields: extraFields(body) };
      return { status: 201, body: { id: mutations.addReview(account, id!, review) } };
    },
  },
  {
    pattern: /^\/_sandbox\/lists$/,
    usage:
      'POST /_sandbox/lists {"name": text, "description"?: text, "visibility"?: "private", "friends" or "public", "fields"?: {member: value}, "items"?: [{"entryId", "note"?}]}: a list, the newest',
    act(mutations, account, body) {
      const visibility = body.visibility;
      const VISIBILITIES: unknown[] = [undefined, 'private', 'friends', 'public'];
      if (!VISIBILITIES.includes(visibility)) throw badField('visibility', '"private", "friends" or "public"');
      if (body.description !== undefined && typeof body.description !== 'string') throw badField('description', 'a string');
      const items = body.items ?? [];
      const wellFormed = (item: unknown): item is { entryId: string; note?: string } =>
        isBody(item) && typeof item.entryId === 'string' && (item.note === undefined || typeof item.note === 'string');
      if (!Array.isArray(items) || !items.every(wellFormed)) throw badField('items', 'an array of {"entryId", "note"?}');
      const list = {
        name: text(body, 'name'),
        description: body.description,
        visibility: visibility as ListRecord['visibility'] | undefined,
        fields: extraFields(body),
        items,
      };
      return { status: 201, body: { id: mutations.addList(account, list) } };
    },
  },
  {
    pattern: /^\/_sandbox\/notifications$/,
    usage: 'POST /_sandbox/notifications {"title": text, "message": text, "kind"?: text}: an unread notification, the newest',
    act(mutations, account, body) {
      const title = text(body, 'title');
      const message = text(body, 'message');
      if (body.kind !== undefined && typeof body.kind !== 'string') throw badField('kind', 'a string');
      return { status: 201, body: { id: mutations.addNotification(account, { title, message, kind: body.kind }) } };
    },
  },
  {
    pattern: new RegExp(`^/_sandbox/notifications/${ENTRY}/read$`),
    usage: 'POST /_sandbox/notifications/{id}/read {"read"?: true or false}',
    act(mutations, account, body, [id]) {
      if (body.read !== undefined && typeof body.read !== 'boolean') throw badField('read', 'true or false');
      const read = body.read ?? true;
      mutations.readNotification(account, id!, read);
      return { status: 200, body: { id: id!, read } };
    },
  },
  {
    pattern: /^\/_sandbox\/profile$/,
    usage: 'POST /_sandbox/profile {"displayName"?: text, "bio"?: text, "location"?: text or null}',
    act(mutations, account, body) {
      const edit: { displayName?: string; bio?: string; location?: string | null } = {};
      for (const field of ['displayName', 'bio'] as const) {
        if (body[field] === undefined) continue;
        if (typeof body[field] !== 'string') throw badField(field, 'a string');
        edit[field] = body[field];
      }
      if (body.location !== undefined) {
        if (body.location !== null && typeof body.location !== 'string') throw badField('location', 'a string or null');
        edit.location = body.location;
      }
      if (Object.keys(edit).length === 0) throw new HttpError(400, 'request.invalid_body', 'Name at least one of displayName, bio, location.');
      mutations.editProfile(account, edit);
      return { status: 200, body: edit };
    },
  },
  {
    pattern: new RegExp(`^/_sandbox/achievements/${ENTRY}/unlock$`),
    usage: 'POST /_sandbox/achievements/{id}/unlock: unlocked now',
    act(mutations, account, _body, [id]) {
      mutations.unlockAchievement(account, id!);
      return { status: 200, body: { id: id!, unlocked: true } };
    },
  },
];

/** What GET /_sandbox answers: the routes, one a line. */
export const ADMIN_USAGE = [
  'Admin routes of the sandbox (loopback only, no key; Content-Type: application/json; ?account=demo by default):',
  ...ROUTES.map((route) => route.usage),
];

/** Whether a client at `address` may use the admin routes: this machine only. */
export function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && (address === '::1' || /^127\./.test(address) || /^::ffff:127\./.test(address));
}

/** One admin request, answered as { status, body }; a refusal is an HttpError. */
export async function adminReply(
  req: IncomingMessage,
  pathname: string,
  query: URLSearchParams,
  mutations: SandboxMutations,
): Promise<{ status: number; body: unknown }> {
  if (!isLoopbackAddress(req.socket.remoteAddress))
    throw new HttpError(403, 'sandbox.admin_loopback_only', 'The sandbox admin routes answer clients on this machine (loopback) only.');
  if (req.method === 'GET' && (pathname === ADMIN_PREFIX || pathname === `${ADMIN_PREFIX}/`)) return { status: 200, body: { routes: ADMIN_USAGE } };
  const route = ROUTES.find((candidate) => candidate.pattern.test(pathname));
  if (!route) throw new HttpError(404, 'not_found', `No admin route ${pathname}; GET ${ADMIN_PREFIX} lists them.`);
  if (req.method !== 'POST')
    throw new HttpError(405, 'request.method_not_allowed', `${req.method} is not allowed: admin routes take POST.`, {}, { Allow: 'POST' });
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    throw new HttpError(
      415,
      'request.unsupported_media_type',
      'Admin routes take a JSON body: send Content-Type: application/json (and {} for none).',
    );
  const body = await jsonBody(req);
  const ids = route.pattern
    .exec(pathname)!
    .slice(1)
    .map((id) => decodeURIComponent(id));
  try {
    return route.act(mutations, query.get('account') ?? 'demo', body, ids);
  } catch (error) {
    if (error instanceof MutationRefused) throw new HttpError(404, 'not_found', error.message);
    throw error;
  }
}

async function jsonBody(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'request.too_large', `Admin bodies hold at most ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  const textBody = Buffer.concat(chunks).toString('utf8');
  let parsed: unknown;
  try {
    parsed = textBody.trim() === '' ? {} : JSON.parse(textBody);
  } catch {
    throw new HttpError(400, 'request.invalid_body', 'The body is not JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new HttpError(400, 'request.invalid_body', 'The body must be a JSON object.');
  return parsed as Body;
}

function badField(field: string, expected: string): HttpError {
  return new HttpError(400, 'request.invalid_body', `${field} must be ${expected}.`, { field });
}

function wholeNumber(body: Body, field: string, min: number, max: number): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw badField(field, `a whole number from ${min} to ${max}`);
  return value;
}

/** `fields`: members a review or list carries as another server spells them, each a string, number, boolean or null. */
function extraFields(body: Body): Record<string, ExtraField> | undefined {
  const fields = body.fields;
  if (fields === undefined) return undefined;
  const primitive = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
  if (!isBody(fields) || !Object.values(fields).every(primitive)) throw badField('fields', 'an object of strings, numbers, booleans or nulls');
  return fields as Record<string, ExtraField>;
}

function isBody(value: unknown): value is Body {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function text(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw badField(field, 'a non-empty string');
  return value;
}
