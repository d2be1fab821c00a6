import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { JqFilter } from '../../src/output/formats/jq.js';
import { describeWith } from '../support/outside-tools.js';

/**
 * --jq is jq itself: every example below comes from jq's manual, and lk's output must be byte for byte what the `jq`
 * binary prints with -r -c (strings raw, other values compact, one a line), the way `gh --jq` prints. The binary is
 * Debian's (installed by .ci/run); the examples are those whose output is the same in jq 1.6 and 1.8.
 */
const MANUAL: Array<[filter: string, input: string]> = [
  ['.', '"Hello, world!"'],
  ['.foo', '{"foo": 42, "bar": "less interesting data"}'],
  ['.foo?', '{"foo": 42, "bar": "less interesting data"}'],
  ['[.foo?]', '[1,2]'],
  ['.["foo"]', '{"foo": 42}'],
  ['.[0]', '[{"name":"JSON", "good":true}, {"name":"XML", "good":false}]'],
  ['.[-2]', '[1,2,3]'],
  ['.[2:4]', '["a","b","c","d","e"]'],
  ['.[:3]', '["a","b","c","d","e"]'],
  ['.[-2:]', '["a","b","c","d","e"]'],
  ['.[]', '[{"name":"JSON", "good":true}, {"name":"XML", "good":false}]'],
  ['.foo, .bar', '{"foo": 42, "bar": "something else", "baz": true}'],
  ['.[] | .name', '[{"name":"JSON", "good":true}, {"name":"XML", "good":false}]'],
  ['(. + 2) * 5', '1'],
  ['[.user, .projects[]]', '{"user":"stedolan", "projects": ["jq", "wikiflow"]}'],
  ['{user, title: .titles[]}', '{"user":"stedolan","titles":["JQ Primer", "More JQ"]}'],
  ['{(.user): .titles}', '{"user":"stedolan","titles":["JQ Primer", "More JQ"]}'],
  ['.a + 1', '{"a": 7}'],
  ['{a: 1} + {b: 2} + {c: 3} + {a: 42}', 'null'],
  ['. - ["xml", "yaml"]', '["xml", "yaml", "json"]'],
  ['{"k": {"a": 1, "b": 2}} * {"k": {"a": 0,"c": 3}}', 'null'],
  ['.[] | (1 / .)?', '[1,0,-1]'],
  ['.[] | length', '[[1,2], "string", {"a":2}, null]'],
  ['utf8bytelength', '"\\u03bc"'],
  ['keys', '{"abc": 1, "abcd": 2, "Foo": 3}'],
  ['map(has("foo"))', '[{"foo": 42}, {}]'],
  ['map(in({"foo": 42}))', '["foo", "bar"]'],
  ['map(.+1)', '[1,2,3]'],
  ['map_values(.+1)', '{"a": 1, "b": 2, "c": 3}'],
  ['[paths]', '[1,[[],{"a":2}]]'],
  ['del(.[1, 2])', '["foo", "bar", "baz"]'],
  ['to_entries', '{"a": 1, "b": 2}'],
  ['from_entries', '[{"key":"a", "value":1}, {"key":"b", "value":2}]'],
  ['with_entries(.value += 1)', '{"a": 1, "b": 2}'],
  ['map(select(. >= 2))', '[1,5,3,0,7]'],
  ['.[] | numbers', '[[],{},1,"foo",null,true,false]'],
  ['add', '["a","b","c"]'],
  ['any', '[true, false]'],
  ['all', '[true, false]'],
  ['flatten(1)', '[1, [2], [[3]]]'],
  ['range(2; 4)', 'null'],
  ['[range(0; 10; 3)]', 'null'],
  ['floor', '3.14159'],
  ['sqrt', '9'],
  ['.[] | tostring', '[1, "1", [1]]'],
  ['.[] | tonumber', '[1, "1"]'],
  ['map(type)', '[0, false, [], {}, null, "hello"]'],
  ['sort', '[8,3,null,6]'],
  ['sort_by(.foo)', '[{"foo":4, "bar":10}, {"foo":3, "bar":100}, {"foo":2, "bar":1}]'],
  ['group_by(.foo)', '[{"foo":1, "bar":10}, {"foo":3, "bar":100}, {"foo":1, "bar":1}]'],
  ['min_by(.foo)', '[{"foo":1, "bar":14}, {"foo":2, "bar":3}]'],
  ['unique', '[1,2,5,3,5,3,1,3]'],
  ['unique_by(length)', '["chunky", "bacon", "kitten", "cicada", "asparagus"]'],
  ['reverse', '[1,2,3,4]'],
  ['contains("bar")', '"foobar"'],
  ['indices(", ")', '"a,b, cd, efg, hijk"'],
  ['indices([1,2])', '[0,1,2,3,1,4,2,5,1,2,6,7]'],
  ['[.[] | startswith("foo")]', '["fo", "foo", "barfoo", "foobar", "barfoob"]'],
  ['[.[] | ltrimstr("foo")]', '["fo", "foo", "barfoo", "foobar", "afoo"]'],
  ['explode', '"foobar"'],
  ['implode', '[65, 66, 67]'],
  ['split(", ")', '"a, b,c,d, e, "'],
  ['join(", ")', '["a","b,c,d","e"]'],
  ['ascii_downcase', '"useful but not for é"'],
  ['[while(. < 100; . * 2)]', '1'],
  ['recurse(.foo[])', '{"foo":[{"foo": []}, {"foo":[{"foo":[]}]}]}'],
  ['transpose', '[[1], [2,3]]'],
  ['bsearch(4)', '[1,2,3]'],
  ['"The input was \\(.), which is one less than \\(. + 1)"', '42'],
  ['[.[] | tojson]', '[1, "foo", ["foo"]]'],
  ['[.[] | tojson | fromjson]', '[1, "foo", ["foo"]]'],
  ['@base64', '"This is a message"'],
  ['@base64d', '"VGhpcyBpcyBhIG1lc3NhZ2U="'],
  ['@html', '"This works if x < y"'],
  ['@sh "echo \\(.)"', '"O\'Hara\'s Ale"'],
  ['@csv', '[1, "one", "a \\"quoted\\" thing"]'],
  ['@tsv', '["a", "b\\tc", 1]'],
  ['@uri "https://www.google.com/search?q=\\(.search)"', '{"search":"what is jq?"}'],
  ['fromdate', '"2015-03-05T23:51:47Z"'],
  ['todate', '1425599507'],
  ['strptime("%Y-%m-%dT%H:%M:%SZ") | mktime', '"2015-03-05T23:51:47Z"'],
  ['. as [$a, $b, {c: $c}] | $a + $b + $c', '[2, 3, {"c": 4, "d": 5}]'],
  ['.[] as [$a, $b] | {a: $a, b: $b}', '[[0], [0, 1], [2, 1, 0]]'],
  ['reduce .[] as $item (0; . + $item)', '[10,2,5,3]'],
  ['foreach .[] as $item (0; . + $item; [$item, . * 2])', '[1,2,3,4,5]'],
  ['[limit(3; .[])]', '[0,1,2,3,4,5,6,7,8,9]'],
  ['[first(range(.)), last(range(.)), nth(./2; range(.))]', '10'],
  ['if . == 0 then "zero" elif . == 1 then "one" else "many" end', '2'],
  ['.a // 42', '{}'],
  ['try error("some exception") catch .', 'true'],
  ['[.[] | (.a, .b) = range(3)]', '[null]'],
  ['.foo += 1', '{"foo": 42}'],
  ['(..|select(type=="boolean")) |= if . then 1 else 0 end', '[true,false,[5,true,[true,[false]],false]]'],
  ['def addvalue(f): . + [f]; map(addvalue(.[0]))', '[[1,2],[10,20]]'],
  ['[combinations]', '[[1,2], [3, 4]]'],
  ['walk(if type == "array" then sort else . end)', '[[4, 1, 7], [8, 5, 2], [3, 6, 9]]'],
  ['test("foo")', '"foo"'],
  ['capture("(?<a>[a-z]+)-(?<n>[0-9]+)")', '"xyzzy-14"'],
  ['[scan("c")]', '"abcdefabc"'],
  ['gsub("p"; "q")', '"apple pie"'],
  ['[splits(", *"; null)]', '"ab,cd, ef"'],
  ['[.[] | ascii_upcase]', '["abc", "Déjà"]'],
  ['getpath(["a","b"])', 'null'],
  ['[getpath(["a","b"], ["a","c"])]', '{"a":{"b":0, "c":1}}'],
  ['setpath(["a","b"]; 1)', 'null'],
  ['delpaths([["a","b"]])', '{"a":{"b":1},"x":{"y":2}}'],
  ['[.[] | splits("a")]', '["bab"]'],
  ['tostream', '{"a":[1,{"b":2}]}'],
  ['fromstream(1|truncate_stream([[0],1],[[1,0],2],[[1,0]],[[1]]))', '1'],
  ['label $out | foreach .[] as $item (0; . + $item; if . > 3 then ., break $out else . end)', '[1,2,3,4]'],
  ['[.[] | select(.id == "second")]', '[{"id": "first", "val": 1}, {"id": "second", "val": 2}]'],
  ['to_entries | map(.key)', '{"b": 1, "a": 2}'],
  ['keys_unsorted', '{"b": 1, "a": 2}'],
  ['[.[] | {name, n: (.items | length)}]', '[{"name": "x", "items": [1,2]}, {"name": "y", "items": []}]'],
  ['$ENV | type', 'null'],
  ['[.[] | tostring]', '[1, "1", [1], {"a": "é"}]'],
  ['.[] | @text', '[1, "x"]'],
  ['splits("b") | length', '"abc"'],
  ['infinite | . > 1e300', 'null'],
  ['[.[] | round]', '[1.2, 2.5, -1.5]'],
  ['min, max', '[5,4,2,7]'],
];

/** jq's own output for one case, by `jq -r -c FILTER`: a case the run over all cases could not take is run alone. */
function jqBinary(filter: string, input: string): string | Error {
  const result = spawnSync('jq', ['-r', '-c', filter], { input, encoding: 'utf8' });
  if (result.error) throw new Error(`the jq binary is needed for this test (apt-get install jq): ${result.error.message}`);
  return result.status === 0 ? result.stdout : new Error(`jq ${filter} failed: ${result.stderr}`);
}

/**
 * jq's output for every case from one run of the binary (129 runs took 20 s of the suite): the inputs are its input
 * documents in order, as jq's own parser reads them, and the program applies each case's filter to the next one with
 * `input`, printing what `-r -c` would print (strings raw, other values compact) as one array a line. A case that fails
 * there (an error) is an Error; when the whole run fails (a filter this jq cannot compile), every case runs alone.
 */
function jqBinaryAll(cases: ReadonlyArray<[filter: string, input: string]>): Array<string | Error> {
  const asPrinted = 'if type == "string" then . else tojson end';
  const program = cases.map(([filter]) => `(try [input | (${filter}\n) | ${asPrinted}] catch {error: .})`).join(',\n');
  const result = spawnSync('jq', ['-n', '-c', program], { input: cases.map(([, input]) => input).join('\n'), encoding: 'utf8' });
  if (result.error) throw new Error(`the jq binary is needed for this test (apt-get install jq): ${result.error.message}`);
  if (result.status !== 0) return cases.map(([filter, input]) => jqBinary(filter, input));
  const lines = result.stdout.split('\n').slice(0, -1);
  if (lines.length !== cases.length) throw new Error(`jq printed ${lines.length} results for ${cases.length} cases`);
  return lines.map((line, index) => {
    const printed = JSON.parse(line) as string[] | { error: unknown };
    if (Array.isArray(printed)) return printed.map((value) => `${value}\n`).join('');
    return new Error(`jq ${cases[index]![0]} failed: ${JSON.stringify(printed.error)}`);
  });
}

describeWith(['jq'], "--jq gives the jq binary's output on the examples of jq's manual", () => {
  it('the table holds at least 30 examples', () => {
    expect(MANUAL.length).toBeGreaterThanOrEqual(30);
  });

  let expected: Array<string | Error> = [];
  beforeAll(() => {
    expected = jqBinaryAll(MANUAL);
  });

  it.each(MANUAL.map(([filter, input], index) => [filter, input, index] as const))('%s  on  %s', async (filter, input, index) => {
    const compiled = await JqFilter.compile(filter);
    const { text, error } = compiled.run(input);
    expect(error).toBeUndefined();
    const jq = expected[index];
    if (jq instanceof Error) throw jq;
    expect(text).toBe(jq);
  });
});

describe('--jq errors', () => {
  it('a syntax error is a usage error (exit 2) that quotes jq', async () => {
    const refused = JqFilter.compile('.[').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(await refused).toMatchObject({ exitCode: 2, message: expect.stringMatching(/^invalid --jq expression: syntax error/) });
  });

  it('an undefined function is caught at compile time too', async () => {
    await expect(JqFilter.compile('no_such_function')).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('no_such_function/0 is not defined'),
    });
  });

  it('a run-time error on null does not fail the compile check', async () => {
    await expect(JqFilter.compile('.[] | .id')).resolves.toBeInstanceOf(JqFilter);
  });

  it('a run-time error exits 1 and keeps the values printed before it, like jq', async () => {
    const filter = await JqFilter.compile('.[] | if . == 2 then error("boom") else . end');
    const { text, error } = filter.run('[1,2,3]');
    expect(text).toBe('1\n');
    expect(error?.exitCode).toBe(1);
    expect(error?.message).toBe('--jq: boom');
  });

  it('several documents (ndjson) are filtered one by one, like jq reading a stream', async () => {
    const filter = await JqFilter.compile('.id');
    expect(filter.run('{"id":"a"}\n{"id":"b"}\n').text).toBe('a\nb\n');
  });

  it('strings keep their white space and numbers their spelling', async () => {
    const filter = await JqFilter.compile('.[]');
    expect(filter.run('["  two spaces  ", 100000000000000000001, 1.50]').text).toBe('  two spaces  \n100000000000000000001\n1.50\n');
  });

  it('on a terminal a raw string cannot carry escape sequences', async () => {
    const filter = await JqFilter.compile('.t');
    expect(filter.run('{"t":"a\\u001b]0;owned\\u0007b"}', { terminal: true }).text).toBe('a\uFFFD]0;owned\uFFFDb\n');
    expect(filter.run('{"t":"a\\u001b]0;owned\\u0007b"}').text).toBe('a\u001b]0;owned\u0007b\n');
  });
});
