import { expect, it } from 'vitest';
import { AUDIENCE_WORDS, PRIVATE_FLAGS, PUBLIC_FLAGS } from '../../src/items/audience.js';
import { NOTE_MEMBERS } from '../../src/items/entry.js';
import { listIsPublic } from '../../src/items/list.js';
import { reviewWithheld, SPOILER_FLAGS } from '../../src/items/review.js';
import { loadSqlite } from '../../src/mirror/open.js';
import { readPublicProjection } from '../../src/readings/projection.js';
import { describeWithSqlite } from '../support/sqlite-node.js';

// Issue 58: lk serve's projection decides in SQL what src/items decides in code (reviewWithheld, listIsPublic), its
// SQL made from the items' spelling lists. Every spelling, alone and in pairs, with every value a server might send:
// the two answers agree.

const FLAG_VALUES = [true, false, 1, 0, 'true', null];
const WORD_VALUES = ['public', 'Public', 'private', 'friends', '', null, 5, true, { public: true }];

/** Each member alone with each value, and every pair of those. */
function markings(): Record<string, unknown>[] {
  const flags = [...PRIVATE_FLAGS, ...PUBLIC_FLAGS, ...SPOILER_FLAGS].flatMap((member) => FLAG_VALUES.map((value) => [member, value] as const));
  const words = AUDIENCE_WORDS.flatMap((member) => WORD_VALUES.map((value) => [member, value] as const));
  const singles = [...flags, ...words];
  const pairs = singles.flatMap((first, index) =>
    singles
      .slice(index + 1)
      .filter(([member]) => member !== first[0])
      .map((second) => [first, second]),
  );
  return [{}, ...singles.map((single) => Object.fromEntries([single])), ...pairs.map((pair) => Object.fromEntries(pair))];
}

describeWithSqlite('lk serve’s projection and src/items agree on every spelling', () => {
  it('a review’s text is withheld, and a list kept, exactly when the accessors say so', () => {
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(':memory:');
    try {
      db.exec(`CREATE TABLE reviews (id TEXT, title TEXT, body TEXT, json TEXT);
               CREATE TABLE lists (id TEXT, name TEXT, json TEXT);
               CREATE TABLE list_items (id TEXT, list_id TEXT, note TEXT, json TEXT);`);
      const cases = markings();
      expect(cases.length).toBeGreaterThan(1000);
      const review = db.prepare('INSERT INTO reviews VALUES (?, ?, ?, ?)');
      const list = db.prepare('INSERT INTO lists VALUES (?, ?, ?)');
      const item = db.prepare('INSERT INTO list_items VALUES (?, ?, NULL, ?)');
      cases.forEach((marks, index) => {
        review.run(String(index), 'title', 'body', JSON.stringify({ headline: 'title', body: 'body', ...marks }));
        list.run(String(index), 'name', JSON.stringify(marks));
        item.run(`${index}:0`, String(index), '{}');
      });
      readPublicProjection(db);
      const ids = (sql: string) =>
        new Set(
          db
            .prepare(sql)
            .all()
            .map((row) => Number(Object.values(row)[0])),
        );
      const shownReviews = ids('SELECT id FROM reviews WHERE body IS NOT NULL');
      const textInJson = ids("SELECT id FROM reviews WHERE json_extract(json, '$.headline') IS NOT NULL");
      const keptLists = ids('SELECT id FROM lists');
      const keptItems = ids('SELECT list_id FROM list_items');
      const disagree = cases.filter(
        (marks, index) =>
          shownReviews.has(index) === reviewWithheld(marks) ||
          textInJson.has(index) === reviewWithheld(marks) ||
          keptLists.has(index) !== listIsPublic(marks) ||
          keptItems.has(index) !== listIsPublic(marks),
      );
      expect(disagree).toEqual([]);
      // Neither side is trivial: some of each.
      expect(cases.filter((marks) => reviewWithheld(marks)).length).toBeGreaterThan(100);
      expect(cases.filter((marks) => !reviewWithheld(marks)).length).toBeGreaterThan(100);
      expect(cases.filter((marks) => listIsPublic(marks)).length).toBeGreaterThan(10);
    } finally {
      db.close();
    }
  });
});

describeWithSqlite('lk serve’s projection removes the notes under every spelling src/items reads them by', () => {
  it('an entry’s notes, note or comment: none left in the json a public address reads', () => {
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(':memory:');
    try {
      db.exec('CREATE TABLE entries (id TEXT, notes TEXT, json TEXT)');
      const insert = db.prepare('INSERT INTO entries VALUES (?, ?, ?)');
      NOTE_MEMBERS.forEach((name, index) => insert.run(String(index), 'secret', JSON.stringify({ id: String(index), [name]: 'secret' })));
      readPublicProjection(db);
      const rows = db.prepare('SELECT notes, json FROM entries').all() as { notes: unknown; json: string }[];
      expect(rows).toHaveLength(NOTE_MEMBERS.length);
      expect(NOTE_MEMBERS).toContain('comment');
      for (const row of rows) {
        expect(row.notes).toBeNull();
        expect(row.json).not.toContain('secret');
      }
    } finally {
      db.close();
    }
  });
});
