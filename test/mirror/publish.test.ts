import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestBed } from '../e2e/harness.js';
import { describeWithSqlite } from '../support/sqlite-node.js';
import { syncedMirror } from '../support/synced-mirror.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 60: lk publish DIR, a static site of the account from the mirror. Its links relative and all resolving, no
// resource from another host, the same bytes for the same mirror, only what it wrote replaced or removed.

/** Every file of a site (its manifest aside), relative to its folder, `/` between folders. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== '.lk-publish.json')
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** The addresses a page names in href and src attributes. */
const addressesIn = (page: string) => [...page.matchAll(/\s(href|src)="([^"]*)"/g)].map((match) => ({ attribute: match[1]!, value: match[2]! }));

describeWithSqlite('lk publish', () => {
  let bed: TestBed;
  let db: string;
  let dir: string;

  beforeAll(async () => {
    ({ bed, db, dir } = await syncedMirror(150, 'lk-publish-'));
  });
  afterAll(async () => {
    await bed?.sandbox.close();
  });

  const publish = (args: string[]) => bed.lk(['publish', ...args, '--db', db], { key: null, env: { LK_DATA_DIR: dir } });

  it('writes the site: the index, the diary in pages, the lists, the years, the feeds; prints the files written', async () => {
    const site = join(tempDir('lk-site-'), 'site');
    const result = await publish([site, '--lists', 'all']);
    expect(result.code, result.stderr).toBe(0);
    const files = filesIn(site);
    for (const file of ['index.html', 'diary.html', 'lists.html', 'years.html', 'feed.atom', 'feed.json']) expect(files).toContain(file);
    expect(files.some((file) => /^diary-\d+\.html$/.test(file))).toBe(true);
    expect(files.some((file) => /^lists\/.+\.html$/.test(file))).toBe(true);
    expect(files.some((file) => /^year\/\d{4}\.html$/.test(file))).toBe(true);
    expect(result.stdout.trim().split('\n').sort()).toEqual(files.map((file) => `${site}/${file}`).sort());
    expect(result.stderr).toMatch(new RegExp(`^lk: published ${site}: ${files.length} written\\n$`));
  });

  it('every link and source is relative and resolves to a file of the site, or is a page of the service (http(s), a link only)', async () => {
    const site = join(tempDir('lk-site-'), 'site');
    expect((await publish([site, '--lists', 'all'])).code).toBe(0);
    for (const file of filesIn(site).filter((name) => name.endsWith('.html'))) {
      for (const { attribute, value } of addressesIn(readFileSync(join(site, file), 'utf8'))) {
        if (/^https?:\/\//.test(value)) {
          // Another host is linked to (a work's page), never loaded: only a plain <a href>.
          expect(attribute, `${file}: ${value}`).toBe('href');
          continue;
        }
        if (value.startsWith('#') || value.startsWith('data:')) continue;
        expect(value, `${file}: ${value} is relative`).not.toMatch(/^(\/|[a-z]+:)/i);
        const target = posix.normalize(posix.join(posix.dirname(file), value.split('#')[0]!));
        expect(existsSync(join(site, target)), `${file} links ${value}`).toBe(true);
      }
    }
  });

  it('the same mirror gives the same bytes; a second run writes nothing and says so', async () => {
    const [first, second] = [join(tempDir('lk-site-'), 'a'), join(tempDir('lk-site-'), 'b')];
    expect((await publish([first])).code).toBe(0);
    expect((await publish([second])).code).toBe(0);
    const files = filesIn(first);
    expect(filesIn(second)).toEqual(files);
    for (const file of files) expect(readFileSync(join(second, file), 'utf8'), file).toBe(readFileSync(join(first, file), 'utf8'));
    const again = await publish([first]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(`lk: published ${first}: 0 written, ${files.length} unchanged\n`);
  });

  it('removes what an earlier run wrote and this one does not, and nothing else', async () => {
    const site = join(tempDir('lk-site-'), 'site');
    expect((await publish([site, '--lists', 'all'])).code).toBe(0);
    const lists = filesIn(site).filter((file) => file.startsWith('lists/'));
    expect(lists.length).toBeGreaterThan(0);
    writeFileSync(join(site, 'CNAME'), 'me.example.org\n');
    const none = await publish([site, '--lists', 'none']);
    expect(none.code, none.stderr).toBe(0);
    for (const file of lists) expect(existsSync(join(site, file)), file).toBe(false);
    expect(readFileSync(join(site, 'CNAME'), 'utf8')).toBe('me.example.org\n');
    expect(readFileSync(join(site, 'lists.html'), 'utf8')).toContain('No list is published.');
  });

  it('refuses a folder of files it did not write (exit 1), a file for DIR and a bad --lists or --base-url (exit 2), before reading', async () => {
    const theirs = tempDir('lk-site-');
    writeFileSync(join(theirs, 'index.html'), 'mine');
    const refused = await publish([theirs]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')[0]).toBe(`lk: ${theirs} holds files lk publish did not write (it has no .lk-publish.json)`);
    expect(readFileSync(join(theirs, 'index.html'), 'utf8')).toBe('mine');
    const file = join(theirs, 'index.html');
    expect((await publish([file])).code).toBe(2);
    for (const [flag, value] of [
      ['--lists', 'some, ,'],
      ['--lists', '../x'],
      ['--base-url', 'me.example.org'],
      ['--base-url', 'ftp://me.example.org/'],
    ]) {
      const site = join(tempDir('lk-site-'), 'site');
      const bad = await bed.lk(['publish', site, flag!, value!, '--db', join(dir, 'nowhere.db')], { key: null });
      expect(bad.code, `${flag} ${value}`).toBe(2);
      expect(bad.stderr, `${flag} ${value}`).toMatch(new RegExp(`^lk: invalid ${flag} "`));
      expect(existsSync(site)).toBe(false);
    }
  });

  it('--lists public (the default) publishes only the lists the API marks public; named ids publish those', async () => {
    const all = join(tempDir('lk-site-'), 'all');
    expect((await publish([all, '--lists', 'all'])).code).toBe(0);
    const everyList = filesIn(all).filter((file) => file.startsWith('lists/'));
    const lists = JSON.parse((await bed.lk(['lists', '--all', '--offline', '--db', db, '--json'], { key: null })).stdout) as {
      id: string;
      visibility?: string;
    }[];
    const publicOnes = lists.filter((list) => list.visibility === 'public');
    expect(publicOnes.length).toBeLessThan(lists.length);
    const byDefault = join(tempDir('lk-site-'), 'default');
    expect((await publish([byDefault])).code).toBe(0);
    expect(filesIn(byDefault).filter((file) => file.startsWith('lists/'))).toEqual(publicOnes.map((list) => `lists/${list.id}.html`).sort());
    const named = join(tempDir('lk-site-'), 'named');
    const hidden = lists.find((list) => list.visibility !== 'public')!;
    expect((await publish([named, '--lists', hidden.id])).code).toBe(0);
    expect(filesIn(named).filter((file) => file.startsWith('lists/'))).toEqual([`lists/${hidden.id}.html`]);
    expect(everyList.length).toBe(lists.length);
  });

  it('--base-url makes the feeds name the site and their own addresses; without it the feeds are lk feed --public', async () => {
    const site = join(tempDir('lk-site-'), 'site');
    expect((await publish([site, '--base-url', 'https://me.example.org/media'])).code).toBe(0);
    const atom = readFileSync(join(site, 'feed.atom'), 'utf8');
    expect(atom).toContain('href="https://me.example.org/media/feed.atom"');
    expect(JSON.parse(readFileSync(join(site, 'feed.json'), 'utf8'))).toMatchObject({
      home_page_url: 'https://me.example.org/media/',
      feed_url: 'https://me.example.org/media/feed.json',
    });
    const plain = join(tempDir('lk-site-'), 'plain');
    expect((await publish([plain])).code).toBe(0);
    const feed = await bed.lk(['feed', '--public', '--db', db], { key: null });
    expect(readFileSync(join(plain, 'feed.atom'), 'utf8')).toBe(feed.stdout);
  });

  it('a site inside a folder that does not exist yet is made with its parents', async () => {
    const site = join(tempDir('lk-site-'), 'a', 'b', 'site');
    mkdirSync(dirname(dirname(site)), { recursive: true });
    expect((await publish([site])).code).toBe(0);
    expect(existsSync(join(site, 'index.html'))).toBe(true);
  });
});
