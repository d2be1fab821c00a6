import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { isJsonText, prettyJson } from '../../src/output/formats/pretty-json.js';

const none = pc.createColors(false);
const SAMPLES: unknown[] = [
  { id: 'a', n: 1, f: -1.5e-7, t: true, z: null, list: [1, [2, []], {}], nested: { deep: { deeper: ['x', { y: 'a "quoted" \\ back\nslash' }] } } },
  [],
  {},
  'just a string',
  42,
  null,
  [{ k: ':,{}[]' }],
];

describe('prettyJson', () => {
  it.each(SAMPLES.map((value) => [JSON.stringify(value), value]))('%s is laid out as JSON.stringify(value, null, 2)', (text, value) => {
    expect(prettyJson(text as string, { colors: none })).toBe(JSON.stringify(value, null, 2));
  });

  it('without indent it gives back compact JSON unchanged', () => {
    for (const value of SAMPLES) expect(prettyJson(JSON.stringify(value), { colors: none, indent: false })).toBe(JSON.stringify(value));
  });

  it('an item at depth 1 is indented as inside an array', () => {
    expect(`[\n  ${prettyJson('{"a":[1]}', { colors: none, depth: 1 })}\n]`).toBe(JSON.stringify([{ a: [1] }], null, 2));
  });

  it('keeps the spelling of numbers the server sent', () => {
    expect(prettyJson('{"n":12345678901234567890,"f":1.50,"e":1E+2}', { colors: none })).toBe(
      '{\n  "n": 12345678901234567890,\n  "f": 1.50,\n  "e": 1E+2\n}',
    );
  });

  it('colours keys, strings and null differently, and the colour codes are the only change', () => {
    const colors = pc.createColors(true);
    const text = prettyJson('{"k":"v","n":null,"x":1}', { colors });
    expect(text).toContain(colors.bold(colors.blue('"k"')));
    expect(text).toContain(colors.green('"v"'));
    expect(text).toContain(colors.dim('null'));
    expect(text.replace(/\u001b\[[0-9;]*m/g, '')).toBe('{\n  "k": "v",\n  "n": null,\n  "x": 1\n}');
  });

  it('escapes C1 controls and bidi overrides inside strings, which JSON allows raw but a terminal obeys', () => {
    expect(prettyJson('"a\u009b2Jb\u202ec"', { colors: none })).toBe('"a\\u009b2Jb\\u202ec"');
    expect(JSON.parse(prettyJson('"a\u009b2Jb\u202ec"', { colors: none }))).toBe('a\u009b2Jb\u202ec');
  });

  it('isJsonText tells one JSON document from anything else', () => {
    expect(isJsonText(' {"a":1}\n')).toBe(true);
    expect(isJsonText('{"a":1}{"b":2}')).toBe(false);
    expect(isJsonText('<html>')).toBe(false);
  });
});
