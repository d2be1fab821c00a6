import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, type TestBed } from './harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWith } from '../support/outside-tools.js';

// Two exports of the sandbox with known mutations between them (an entry removed, one rated, one re-noted, an event
// added, two entries added): lk diff must find exactly those, and nothing else.

type Item = Record<string, unknown> & { id: string };
interface Export {
  library: Item[];
  history: Item[];
  reviews: Item[];
}
interface Change {
  field: string;
  before: unknown;
  after: unknown;
}
interface Diff {
  added: Item[];
  removed: Item[];
  changed: { id: string; title: string | null; changes: Change[] }[];
  history: {
    added: Item[];
    removed: Item[];
    changed: { id: string; title: string | null; changes: Change[] }[];
    byDomain: Record<string, { added: number; removed: number; changed: number }>;
  };
  lists: { added: Item[]; removed: Item[]; changed: unknown[] };
  reviews: { added: Item[]; removed: Item[]; changed: unknown[] };
  profile: { changes: Change[] };
  notifications: { added: Item[]; removed: Item[]; changed: { id: string; changes: Change[] }[] };
  achievements: { added: Item[]; removed: Item[]; changed: { id: string; changes: Change[] }[] };
}

let bed: TestBed;
let dir: string;
let oldPath: string;
let newPath: string;
const mutated = { removed: '', rated: '', renoted: '', watched: '', event: '', added: [] as string[] };
const LONG_NOTE = 'Started it on the train to Lyon, loved the first act, the middle drags a little, the ending is superb.';
const NEW_NOTE = LONG_NOTE.replace('drags a little', 'is perfect too');

async function exportTo(name: string, key = 'full'): Promise<string> {
  const path = join(dir, name);
  const result = await bed.lk(['export', '-q', '-o', path], { key, env: { LK_CACHE_DIR: join(dir, `cache-${name}`) } });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return path;
}

const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Export;

beforeAll(async () => {
  bed = await startTestBed({ entries: 60, rateLimit: 0, exportIntervalSeconds: 0 });
  dir = tempDir('lk-diff-');
  const entries = bed.sandbox.entryIds('demo');
  [mutated.removed, mutated.rated, mutated.renoted, mutated.watched] = [entries[3]!, entries[7]!, entries[11]!, entries[15]!];
  bed.sandbox.noteEntry('demo', mutated.renoted, LONG_NOTE);
  oldPath = await exportTo('old.json');
  bed.sandbox.removeEntry('demo', mutated.removed);
  const before = read(oldPath).library.find((entry) => entry.id === mutated.rated)!.rating;
  bed.sandbox.rateEntry('demo', mutated.rated, before === 4 ? 5 : 4);
  bed.sandbox.noteEntry('demo', mutated.renoted, NEW_NOTE);
  mutated.event = bed.sandbox.addEvent('demo', mutated.watched);
  bed.sandbox.addEntries('demo', 2);
  mutated.added = bed.sandbox.entryIds('demo').slice(0, 2);
  newPath = await exportTo('new.json');
});

afterAll(async () => {
  await bed.sandbox.close();
});

async function diffJson(...args: string[]): Promise<Diff> {
  const result = await bed.lk(['diff', ...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Diff;
}

describe('lk diff OLD NEW', () => {
  it('finds exactly the mutations made between the two exports, and nothing else', async () => {
    const diff = await diffJson(oldPath, newPath);
    const old = read(oldPath);
    expect(ids(diff.added)).toEqual([...mutated.added].sort());
    expect(ids(diff.removed)).toEqual([mutated.removed]);
    expect(ids(diff.changed)).toEqual([mutated.rated, mutated.renoted, mutated.watched].sort());

    const changesOf = (id: string) => diff.changed.find((entry) => entry.id === id)!.changes;
    const oldEntry = (id: string) => old.library.find((entry) => entry.id === id)!;
    const rating = changesOf(mutated.rated).find((change) => change.field === 'rating');
    expect(rating).toEqual({ field: 'rating', before: oldEntry(mutated.rated).rating, after: rating!.before === 4 ? 5 : 4 });
    expect(changesOf(mutated.renoted).find((change) => change.field === 'notes')).toEqual({ field: 'notes', before: LONG_NOTE, after: NEW_NOTE });
    // Each mutation also moves the entry's "updated" date, and nothing else.
    expect(changesOf(mutated.rated).map((change) => change.field)).toEqual(['rating', 'dates.updated']);
    expect(changesOf(mutated.renoted).map((change) => change.field)).toEqual(['notes', 'dates.updated']);
    expect(changesOf(mutated.watched).map((change) => change.field)).toEqual(['dates.updated']);

    expect(ids(diff.history.added)).toEqual([mutated.event]);
    const goneEvents = old.history.filter((event) => event.entryId === mutated.removed);
    expect(ids(diff.history.removed)).toEqual(ids(goneEvents));
    const counted = Object.values(diff.history.byDomain).reduce((sum, n) => sum + n.added + n.removed, 0);
    expect(counted).toBe(1 + goneEvents.length);
    expect(diff.history.byDomain.MEDIA?.added).toBe(1); // a FILM_SEEN event

    expect(diff.lists).toEqual({ added: [], removed: [], changed: [] });
    expect(diff.reviews.added).toEqual([]);
    expect(ids(diff.reviews.removed)).toEqual(ids(old.reviews.filter((review) => review.entryId === mutated.removed)));
  });

  it('agrees with a plain comparison of the two parsed files', async () => {
    const diff = await diffJson(oldPath, newPath);
    const [old, now] = [read(oldPath), read(newPath)];
    const byId = (items: Item[]) => new Map(items.map((item) => [item.id, JSON.stringify(item)]));
    const [before, after] = [byId(old.library), byId(now.library)];
    expect(ids(diff.added)).toEqual([...after.keys()].filter((id) => !before.has(id)).sort());
    expect(ids(diff.removed)).toEqual([...before.keys()].filter((id) => !after.has(id)).sort());
    expect(ids(diff.changed)).toEqual([...after.keys()].filter((id) => before.has(id) && before.get(id) !== after.get(id)).sort());
  });

  it('identical exports: no difference, exit 0 with --exit-code', async () => {
    const json = await diffJson(oldPath, oldPath);
    expect(json).toEqual({ added: [], removed: [], changed: [], history: { added: [], removed: [], changed: [], byDomain: {} }, ...emptyParts() });
    const result = await bed.lk(['diff', oldPath, oldPath, '--exit-code']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('no changes\n');
  });

  it('--exit-code exits 1 when anything differs, after the report, with nothing on stderr', async () => {
    const result = await bed.lk(['diff', oldPath, newPath, '--exit-code']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^2 entries added, 1 entry removed, 3 entries changed, 1 history event added/m);
  });

  it('a gzip file is told by its content, whatever its name, and compares as the plain one', async () => {
    const compressed = join(dir, 'old-copy');
    writeFileSync(compressed, gzipSync(readFileSync(oldPath)));
    expect(await diffJson(compressed, newPath)).toEqual(await diffJson(oldPath, newPath));
  });

  it('items in another order (another server, another day) are matched as well', async () => {
    const shuffled = read(newPath);
    shuffled.library.reverse();
    shuffled.history.reverse();
    const path = join(dir, 'new-reversed.json');
    writeFileSync(path, JSON.stringify(shuffled, null, 1));
    const sorted = (diff: Diff) => ({ ...diff, added: ids(diff.added), removed: ids(diff.removed), changed: ids(diff.changed) });
    const reordered = await diffJson(oldPath, path);
    const original = await diffJson(oldPath, newPath);
    expect(sorted(reordered)).toEqual(sorted(original));
    expect(ids(reordered.history.added)).toEqual(ids(original.history.added));
    expect(ids(reordered.history.removed)).toEqual(ids(original.history.removed));
  });

  it('--jq and --fields apply to the JSON', async () => {
    const jq = await bed.lk(['diff', oldPath, newPath, '--jq', '.history.added[].id']);
    expect(jq.stdout).toBe(`${mutated.event}\n`);
    const fields = await bed.lk(['diff', oldPath, newPath, '--fields', 'removed']);
    expect(Object.keys(JSON.parse(fields.stdout) as object)).toEqual(['removed']);
  });

  it('the report groups by collection, shows before → after, a long note by its changed part, and the summary last', async () => {
    const result = await bed.lk(['diff', oldPath, newPath]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^library +\+2 -1 ~3$/);
    expect(lines).toContain(lines.find((line) => /^ {6}rating \d+ → \d+$/.test(line)));
    const note = lines.find((line) => line.trimStart().startsWith('notes '))!;
    expect(note).toContain('drags a little');
    expect(note).toContain('is perfect too');
    expect(note).not.toContain('train to Lyon'); // the unchanged start is left out…
    expect(note).toMatch(/…/); // …and says so
    expect(lines.some((line) => /^history +\+1 -\d+$/.test(line))).toBe(true);
    // The summary, wrapped within the 80 columns of a pipe, names every collection that changed.
    const summary = lines.slice(lines.findIndex((line) => line.startsWith('2 entries added'))).join(' ');
    expect(summary).toMatch(/^2 entries added, 1 entry removed, 3 entries changed, 1 history event added, \d+ history events? removed/);
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    expect(result.stdout).not.toContain(`(entry ${mutated.watched})`);
    // -v lists the events, each named by its entry's title.
    const verbose = await bed.lk(['diff', oldPath, newPath, '-v']);
    const title = (read(newPath).library.find((entry) => entry.id === mutated.watched)!.work as { title: string }).title;
    expect(verbose.stdout).toMatch(new RegExp(`^  \\+ \\d{4}-\\d\\d-\\d\\d FILM_SEEN ${escape(title)} \\(entry ${mutated.watched}\\)$`, 'm'));
  });
});

describe('lk diff compares everything an export holds', () => {
  /** A copy of the old export with one thing changed: the diff must find that and nothing else. */
  const variant = (name: string, change: (json: Record<string, Item[] & Record<string, unknown>>) => void) => {
    const json = JSON.parse(readFileSync(oldPath, 'utf8')) as Record<string, Item[] & Record<string, unknown>>;
    change(json);
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(json));
    return path;
  };
  const differs = async (path: string) => {
    const result = await bed.lk(['diff', oldPath, path, '--exit-code']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    return result.stdout.trimEnd().split('\n');
  };

  it('a history event changed in place (its date, its minutes) is history.changed, not removed and added', async () => {
    const old = read(oldPath);
    const [moved, timed] = [old.history[1]!, old.history.find((event) => typeof event.minutes === 'number') ?? old.history[2]!];
    const path = variant('event-changed.json', (json) => {
      const events = json.history as unknown as Item[];
      events.find((event) => event.id === moved.id)!.date = '2020-02-02T20:20:00.000Z';
      const other = events.find((event) => event.id === timed.id)!;
      other.minutes = (typeof other.minutes === 'number' ? other.minutes : 0) + 7;
    });
    const diff = await diffJson(oldPath, path);
    expect(diff.history.added).toEqual([]);
    expect(diff.history.removed).toEqual([]);
    expect(ids(diff.history.changed)).toEqual([moved.id, timed.id].sort());
    const changed = diff.history.changed.find((event) => event.id === moved.id)!;
    expect(changed.changes).toEqual([{ field: 'date', before: moved.date, after: '2020-02-02T20:20:00.000Z' }]);
    const entryTitle = (old.library.find((entry) => entry.id === moved.entryId)!.work as { title: string }).title;
    expect(changed.title).toBe(entryTitle);
    expect(diff.history.changed.find((event) => event.id === timed.id)!.changes.map((change) => change.field)).toEqual(['minutes']);
    const lines = await differs(path);
    expect(lines.at(-1)).toBe('2 history events changed');
    expect(lines).toContain(`      date ${moved.date as string} → 2020-02-02T20:20:00.000Z`);
  });

  it("an event that embeds its work (GET /v1/history's spelling) against one naming it by id (the export's) is no change; another work is", async () => {
    const old = read(oldPath);
    const [embedded, moved] = old.history.filter((event) => typeof event.workId === 'string');
    const path = variant('event-spelled.json', (json) => {
      for (const event of json.history as unknown as Item[]) {
        if (event.id !== embedded!.id && event.id !== moved!.id) continue;
        const workId = event.id === moved!.id ? 'w-another' : event.workId;
        delete event.workId;
        event.work = { id: workId, title: 'As the pages embed it' };
      }
    });
    const diff = await diffJson(oldPath, path);
    expect(diff.history.changed.map((event) => [event.id, event.changes])).toEqual([
      [moved!.id, [{ field: 'workId', before: moved!.workId, after: 'w-another' }]],
    ]);
  });

  it('the profile, a notification read, an achievement unlocked: each found, --exit-code 1, named in the summary', async () => {
    const old = JSON.parse(readFileSync(oldPath, 'utf8')) as { profile: { bio: unknown }; notifications: Item[]; achievements: Item[] };
    const profile = variant('profile-changed.json', (json) => {
      (json.profile as unknown as { bio: string }).bio = 'A new bio';
    });
    expect((await diffJson(oldPath, profile)).profile.changes).toEqual([{ field: 'bio', before: old.profile.bio, after: 'A new bio' }]);
    expect((await differs(profile)).at(-1)).toBe('1 profile field changed');

    const notification = old.notifications[0]!;
    const read = variant('notification-read.json', (json) => {
      const item = (json.notifications as unknown as Item[])[0]!;
      item.read = !item.read;
    });
    const byNotification = await diffJson(oldPath, read);
    expect(byNotification.notifications.changed).toEqual([
      expect.objectContaining({ id: notification.id, changes: [{ field: 'read', before: notification.read, after: !notification.read }] }),
    ]);
    expect((await differs(read)).at(-1)).toBe('1 notification changed');

    const locked = old.achievements.find((item) => item.unlocked === false) ?? old.achievements[0]!;
    const unlocked = variant('achievement-unlocked.json', (json) => {
      const item = (json.achievements as unknown as Item[]).find((achievement) => achievement.id === locked.id)!;
      item.unlocked = true;
      item.unlockedAt = '2026-11-20T10:00:00.000Z';
    });
    expect(ids((await diffJson(oldPath, unlocked)).achievements.changed)).toEqual([locked.id]);
    expect((await differs(unlocked)).at(-1)).toBe('1 achievement changed');

    const gone = variant('notification-gone.json', (json) => {
      (json.notifications as unknown as Item[]).shift();
    });
    expect(ids((await diffJson(oldPath, gone)).notifications.removed)).toEqual([notification.id]);
  });

  it('an older export without the profile, notifications and achievements: one stderr line says they were not compared', async () => {
    const older = variant('older.json', (json) => {
      delete json.profile;
      delete json.notifications;
      delete json.achievements;
    });
    const result = await bed.lk(['diff', older, oldPath, '--exit-code']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('no changes\n');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^lk: not compared: .*older\.json holds no profile, notifications, achievements/);
  });

  it('items of the same id within one export: one stderr line per side naming them, and each is still compared', async () => {
    const old = read(oldPath);
    const [entry, event] = [old.library[0]!, old.history[0]!];
    const twice = variant('twice-old.json', (json) => {
      json.library!.push({ ...entry, rating: 1, notes: 'a second copy' });
      json.history!.push({ ...event });
    });
    const list = (old as unknown as { lists: Item[] }).lists[0]!;
    const twiceNew = variant('twice-new.json', (json) => {
      json.lists!.push({ ...list, name: 'a second copy' });
    });
    const result = await bed.lk(['diff', twice, twiceNew, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `lk: warning: ${twice} has items of the same id (library ${entry.id} ×2; history ${event.id} ×2); all of them are compared`,
      `lk: warning: ${twiceNew} has items of the same id (lists ${list.id} ×2); all of them are compared`,
    ]);
    // The originals are found word for word on the other side; the copies are what differs, none taken silently.
    const diff = JSON.parse(result.stdout) as Diff;
    expect(diff.removed).toEqual([expect.objectContaining({ id: entry.id, notes: 'a second copy' })]);
    expect(ids(diff.history.removed)).toEqual([event.id]);
    expect(diff.lists.added).toEqual([expect.objectContaining({ id: list.id, name: 'a second copy' })]);
    expect([diff.added, diff.changed, diff.lists.removed, diff.lists.changed]).toEqual([[], [], [], []]);
  });

  it('two exports of different accounts of the same name: refused by id, worded with both', async () => {
    const other = variant('same-name.json', (json) => {
      (json.account as unknown as Item).id = 'another-id';
    });
    const result = await bed.lk(['diff', oldPath, other]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/another account \(demo, id another-id\) than .*old\.json \(demo, id [^)]+\)/);
    expect(result.stderr).not.toMatch(/is demo's/);
  });
});

describe('lk diff of an export from another implementation', () => {
  it('matches by id whatever the ids look like (UUIDs here) and whatever the other fields are called', async () => {
    // The same two exports as another server might send them: UUID ids, `type` for `kind`, no `phase`.
    const uuid = (id: string) =>
      createHash('sha256')
        .update(id)
        .digest('hex')
        .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*/, '$1-$2-$3-$4-$5');
    const rewrite = (path: string, name: string) => {
      const text = readFileSync(path, 'utf8').replace(/"(id|entryId|workId)":"([^"]+)"/g, (_, key: string, id: string) => `"${key}":"${uuid(id)}"`);
      const json = JSON.parse(text.replaceAll('"kind":', '"type":')) as Export;
      for (const entry of json.library) delete entry.phase;
      const out = join(dir, name);
      writeFileSync(out, JSON.stringify(json));
      return out;
    };
    const diff = await diffJson(rewrite(oldPath, 'uuid-old.json'), rewrite(newPath, 'uuid-new.json'));
    expect(ids(diff.added)).toEqual(mutated.added.map(uuid).sort());
    expect(ids(diff.removed)).toEqual([uuid(mutated.removed)]);
    expect(ids(diff.changed)).toEqual([mutated.rated, mutated.renoted, mutated.watched].map(uuid).sort());
    expect(ids(diff.history.added)).toEqual([uuid(mutated.event)]);
  });
});

describe('lk diff refuses what it cannot compare', () => {
  const refusal = async (path: string, other: string, reason: RegExp) => {
    const result = await bed.lk(['diff', path, other]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^lk: /);
    expect(lines[0]).toContain(path);
    expect(lines[0]).toMatch(reason);
  };

  it('a file that is not JSON, JSON that is not an export, a missing file', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello\n');
    await refusal(text, newPath, /not an export/);
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"items": [1, 2]}');
    await refusal(other, newPath, /not an export.*no library/);
    await refusal(join(dir, 'absent.json'), newPath, /no such file/);
  });

  it('a truncated export, plain or gzip', async () => {
    const whole = readFileSync(oldPath);
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await refusal(cut, newPath, /ends early/);
    const zipped = gzipSync(whole);
    const cutGzip = join(dir, 'cut.json.gz');
    writeFileSync(cutGzip, zipped.subarray(0, Math.floor(zipped.length / 2)));
    await refusal(cutGzip, newPath, /truncated/);
  });

  it("another account's export", async () => {
    const reader = await exportTo('reader.json', 'nogames');
    await refusal(reader, oldPath, /another account/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function emptyParts() {
  const none = () => ({ added: [], removed: [], changed: [] });
  return { lists: none(), reviews: none(), notifications: none(), achievements: none(), profile: { changes: [] } };
}

describe('lk export carries the profile, notifications and achievements an instance leaves out of its export', () => {
  it('reads them from their endpoints, so that a diff of two backups sees a profile change', async () => {
    const leaving = await startTestBed({
      entries: 20,
      rateLimit: 0,
      exportIntervalSeconds: 0,
      exportLeavesOut: ['profile', 'notifications', 'achievements'],
    });
    try {
      const folder = tempDir('lk-diff-left-out-');
      const exportOf = async (name: string) => {
        const path = join(folder, name);
        const result = await leaving.lk(['export', '-q', '-o', path], { env: { LK_CACHE_DIR: join(folder, `cache-${name}`) } });
        expect(result.code).toBe(0);
        return path;
      };
      const before = await exportOf('before.json');
      const json = JSON.parse(readFileSync(before, 'utf8')) as Record<string, unknown>;
      const live = async (path: string) => JSON.parse((await leaving.lk(['api', path])).stdout) as unknown;
      expect(json.profile).toEqual(await live('/v1/profile'));
      expect((json.notifications as unknown[]).length).toBeGreaterThan(0);
      expect(json.achievements).toEqual(expect.any(Array));

      leaving.sandbox.addEntries('demo', 1);
      const after = await exportOf('after.json');
      const diff = await leaving.lk(['diff', before, after, '--json']);
      expect(diff.stderr).toBe('');
      const fields = (JSON.parse(diff.stdout) as Diff).profile.changes.map((change) => change.field);
      expect(fields).toContain('counts.entries');
    } finally {
      await leaving.sandbox.close();
    }
  });
});

describe('lk diff operands that are not plain files', () => {
  const oneLine = (result: { code: number | null; stdout: string; stderr: string }, path: string, reason: RegExp) => {
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(path);
    expect(lines[0]).toMatch(reason);
  };

  it('a folder is one line naming it, exit 1', async () => {
    oneLine(await bed.lk(['diff', oldPath, dir]), dir, /a folder, not an export file/);
    oneLine(await bed.lk(['diff', dir, oldPath]), dir, /a folder, not an export file/);
  });

  describeWith(['mkfifo'], 'FIFOs', () => {
    it('a FIFO no one writes to is one line naming it, exit 1 (not a wait for ever)', async () => {
      const fifo = join(dir, 'nobody-writes');
      execFileSync('mkfifo', [fifo]);
      oneLine(await bed.lk(['diff', oldPath, fifo]), fifo, /a FIFO \(named pipe\) no one writes to/);
      oneLine(await bed.lk(['diff', fifo, oldPath]), fifo, /a FIFO \(named pipe\) no one writes to/);
    });

    it('a FIFO someone writes an export into is read as it comes', async () => {
      const fifo = join(dir, 'someone-writes');
      execFileSync('mkfifo', [fifo]);
      const writer = new Promise<void>((resolve, reject) => {
        const out = createWriteStream(fifo);
        out.on('error', reject).on('close', () => resolve());
        out.end(readFileSync(newPath));
      });
      const result = await bed.lk(['diff', oldPath, fifo, '--json']);
      await writer;
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual(await diffJson(oldPath, newPath));
    });
  });

  describeWith(['mknod'], 'devices', () => {
    it('a device is one line naming it, exit 1', async () => {
      const device = join(dir, 'a-device');
      execFileSync('mknod', [device, 'c', '1', '3']);
      oneLine(await bed.lk(['diff', device, newPath]), device, /a device, not an export file/);
    });
  });

  it('- reads stdin, gzip or plain', async () => {
    const plain = await bed.lk(['diff', oldPath, '-', '--json'], { input: readFileSync(newPath, 'utf8') });
    expect(plain.stderr).toBe('');
    expect(JSON.parse(plain.stdout)).toEqual(await diffJson(oldPath, newPath));
    const refused = await bed.lk(['diff', '-', '-']);
    expect(refused.code).toBe(2);
  });

  it('without operands: the error, then a usage line, exit 2', async () => {
    const result = await bed.lk(['diff']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^lk: missing required argument 'old'\nUsage: lk diff OLD \[NEW\]/);
  });
});
