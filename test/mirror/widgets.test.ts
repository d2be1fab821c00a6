import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestBed } from '../e2e/harness.js';
import { serveInProcess, type Serving } from '../support/serve-in-process.js';
import { describeWithSqlite } from '../support/sqlite-node.js';
import { syncedMirror } from '../support/synced-mirror.js';

// Issue 60: every field path of docs/widgets.md's configurations (Homepage, Glance, Home Assistant) resolves in what
// lk serve answers at the address that configuration polls: a widget copied from the page shows data, not a blank.

const page = readFileSync(new URL('../../docs/widgets.md', import.meta.url), 'utf8');

/** Each configuration of the page: its name and its YAML. */
const blocks = [...page.matchAll(/<!-- widget: ([\w-]+) -->\n```yaml\n([\s\S]*?)```/g)].map((match) => ({ name: match[1]!, yaml: match[2]! }));

/** The value at a path ('' parts skipped), an array's first item standing for its items; undefined when missing. */
function at(value: unknown, path: (string | number)[]): unknown {
  let here = value;
  for (const part of path) {
    if (part === '') continue;
    if (Array.isArray(here) && typeof part === 'string') here = here[0];
    here = here === null || typeof here !== 'object' ? undefined : (here as Record<string | number, unknown>)[part];
  }
  return here;
}

const dotted = (path: string) => (path === '' ? [] : path.split('.'));

/** The paths a configuration reads, each against the document it polls (resource/url). */
function pathsOf(yaml: string): { document: string; path: (string | number)[] }[] {
  const found: { document: string; path: (string | number)[] }[] = [];
  // A configuration may poll more than one address (Home Assistant's resources): each part reads its own.
  const parts = yaml.split(/(?=^\s*- resource: |^\s*url: )/m).filter((part) => /(resource|url): /.test(part));
  for (const part of parts) {
    const document = /(?:resource|url): http:\/\/lk\.lan:8787(\/[\w.]+)/.exec(part)![1]!;
    // Homepage: field: { a: b } or field: a
    for (const match of part.matchAll(/field: \{ (\w+): (\w+) \}|field: (\w+)/g)) {
      found.push({ document, path: match[3] ? [match[3]] : [match[1]!, match[2]!] });
    }
    // Home Assistant: value_json.a.b and value_json[0].b; json_attributes' keys.
    for (const match of part.matchAll(/value_json((?:\[\d+\])?(?:\.\w+)+)/g)) {
      const path = match[1]!.split(/\.|\[|\]/).filter((piece) => piece !== '');
      found.push({ document, path: path.map((piece) => (/^\d+$/.test(piece) ? Number(piece) : piece)) });
    }
    for (const match of part.matchAll(/json_attributes:\n((?:\s+- \w+\n)+)/g)) {
      for (const key of match[1]!.matchAll(/- (\w+)/g)) found.push({ document, path: [key[1]!] });
    }
    // Glance: .JSON.Int "a.b" at the root; inside range .JSON.Array "x", .String "k" of x's items.
    let outside = part;
    for (const range of part.matchAll(/\{\{ range \.JSON\.Array "([\w.]*)" \}\}([\s\S]*?)\{\{ end \}\}/g)) {
      found.push({ document, path: dotted(range[1]!) });
      for (const inner of range[2]!.matchAll(/\.(?:String|Int|Float|Bool) "([\w.]+)"/g)) {
        found.push({ document, path: [...dotted(range[1]!), 0, ...dotted(inner[1]!)] });
      }
      outside = outside.replace(range[0], '');
    }
    for (const match of outside.matchAll(/\.JSON\.(?:String|Int|Float|Bool|Array) "([\w.]+)"/g)) found.push({ document, path: dotted(match[1]!) });
  }
  return found;
}

describeWithSqlite('docs/widgets.md against lk serve', () => {
  let bed: TestBed;
  let serving: Serving;

  beforeAll(async () => {
    const synced = await syncedMirror(150, 'lk-widgets-');
    bed = synced.bed;
    serving = await serveInProcess(bed, ['--db', synced.db]);
  });
  afterAll(async () => {
    if (serving) expect((await serving.stop()).code).toBe(0);
    await bed?.sandbox.close();
  });

  it('the page holds a configuration for each dashboard', () => {
    expect(blocks.map((block) => block.name)).toEqual(['homepage', 'glance', 'glance-next', 'home-assistant']);
  });

  for (const { name, yaml } of blocks) {
    it(`${name}: every field path it reads is there in what lk serve answers`, async () => {
      const paths = pathsOf(yaml);
      expect(paths.length, name).toBeGreaterThan(2);
      const answers = new Map<string, unknown>();
      for (const { document, path } of paths) {
        if (!answers.has(document)) {
          const response = await fetch(new URL(document, serving.url));
          expect(response.status, document).toBe(200);
          answers.set(document, await response.json());
        }
        expect(at(answers.get(document), path), `${name}: ${document} ${path.join('.')}`).not.toBeUndefined();
      }
    });
  }
});
