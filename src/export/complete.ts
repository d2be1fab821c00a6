import type { ApiReader } from '../api/client.js';
import { pathOf } from '../api/endpoints.js';
import { paginate } from '../api/paginate.js';
import { ApiError } from '../util/errors.js';
import type { ObtainedExport } from './obtain.js';

/**
 * The parts of an account docs/api.md lets an instance's export leave out, that `lk diff` compares: when the export has
 * no profile, notifications or achievements, they are read from their endpoints (as `lk sync` does, mirror/sync/
 * plan.ts), so that two backups of the account show what changed in them. A key without their scope (403) or an
 * instance without the endpoint (404) leaves the part out, as the export did; `lk diff` then says it was not compared.
 */

export const COMPLETED_PARTS = ['profile', 'notifications', 'achievements'] as const;
type Part = (typeof COMPLETED_PARTS)[number];

export async function completeExport(client: ApiReader, exported: ObtainedExport, signal?: AbortSignal): Promise<ObtainedExport> {
  const missing = COMPLETED_PARTS.filter((part) => !Object.hasOwn(exported.json, part));
  if (missing.length === 0) return exported;
  const added: Partial<Record<Part, unknown>> = {};
  for (const part of missing) {
    try {
      added[part] = await readPart(client, part, signal);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 403 || error.status === 404)) continue;
      throw error;
    }
  }
  const members = Object.entries(added);
  if (members.length === 0) return exported;
  // Added to the server's text as members of its object, the rest left byte for byte as the server sent it.
  const end = exported.text.lastIndexOf('}');
  const comma = Object.keys(exported.json).length > 0 ? ',' : '';
  const text = `${exported.text.slice(0, end)}${comma}${members.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}${exported.text.slice(end)}`;
  return { ...exported, text, json: { ...exported.json, ...added } };
}

async function readPart(client: ApiReader, part: Part, signal: AbortSignal | undefined): Promise<unknown> {
  if (part === 'profile') return (await client.get(pathOf('profile'), {}, { signal })).json;
  const items: unknown[] = [];
  for await (const page of paginate(client, pathOf(part), {}, { all: true, followIfPaged: part === 'achievements' }, { signal })) {
    items.push(...page.items);
  }
  return items;
}
