/**
 * The layers of lk (README, "Development"): dependencies point down, never back up.
 *
 *   cli → commands → context · mcp · serve → publish · notify → card → readings → api · export · diff · mirror · convert · feed · report · overview · output · completion · schedule → config → items → util
 *   (output/ does not import config/: what the config says reaches it through Context and the OutputSession)
 *
 * src/sandbox is the reference server: it imports nothing of the client, and the client imports it only to run it.
 * src/vocabulary.ts (SPEC.md's domains, phases and statuses) is a leaf under every layer, the sandbox included.
 * src/items reads the fields of the API's items (entries, works, events, the account) for whichever layer needs them.
 * No folder loop either: `allowed` below is checked when this file loads (a loop throws, naming it).
 * `npx depcruise src` (part of npm test) fails on any import against these rules, and on any cycle.
 */
const layer = (name) => `^src/${name}(/|\\.ts$)`;

/** What each folder may import from src/, besides itself. */
const allowed = {
  util: [],
  // The fields of the API's items read loosely (docs/api.md fixes few names): one reading for every layer.
  items: ['util'],
  config: ['util'],
  // api/ speaks HTTP, not the terminal: nothing from the command line, commands or output (their words reach it as functions).
  api: ['items', 'util'],
  // output/ decides how things look from what it is handed: the settings come in from Context, never read here.
  output: ['api', 'items', 'util'],
  completion: ['config', 'util'],
  // lk help TOPIC: the concepts behind the flags, written once for help, man pages and the README.
  help: [],
  // Aliases and extensions: expanding an alias, finding lk-NAME on PATH, running either in lk's place.
  extend: ['config', 'util'],
  // The man pages, made at build time from the command tree and the help topics.
  man: ['help', 'completion', 'util'],
  // What changed between two exports (or an export and the mirror), as data, and its terminal view. The mirror's side
  // is handed in as a DiffSource: diff/ reads no mirror (export → diff, and mirror → export, would loop).
  diff: ['output', 'items', 'util'],
  export: ['api', 'diff', 'output', 'config', 'items', 'util'],
  mirror: ['api', 'export', 'output', 'config', 'items', 'util'],
  convert: ['mirror', 'export', 'api', 'output', 'config', 'items', 'util'],
  // lk feed: the mirror's activity as Atom / JSON Feed; its wording and writing live in output/.
  feed: ['mirror', 'output', 'config', 'items', 'util'],
  // The year in review: figures read from the mirror, and the page drawn from them (with output's sanitising).
  report: ['mirror', 'output', 'items', 'util'],
  // lk next and lk status: one answer computed from the API or from the mirror (report's time zones for "this year").
  overview: ['api', 'mirror', 'report', 'items', 'util'],
  // The readings and their engine: each answer declared once (its filters, its view, its API and mirror sources) and
  // run once for every surface, the one opener of the mirror and its public projection; the year in review from report/.
  readings: ['api', 'mirror', 'overview', 'feed', 'report', 'output', 'config', 'items', 'util'],
  // The MCP server: the engine's readings for the owner (the mirror, and with --live the API), worded for a model.
  mcp: ['api', 'mirror', 'report', 'overview', 'readings', 'output', 'config', 'items', 'util'],
  // lk card: SVG cards drawn from the engine's card readings (readings/cards.ts), always for a public host.
  card: ['readings', 'mirror', 'output', 'items', 'util'],
  // lk serve: the engine's readings for a public host, over HTTP (it composes none itself).
  serve: ['mirror', 'readings', 'publish', 'card', 'output', 'util'],
  // lk publish: a static site of the engine's public readings (and the cards), its pages drawn here.
  publish: ['readings', 'card', 'mirror', 'overview', 'output', 'items', 'util'],
  // lk notify: the messages made from the readings' mirror side, sent to each target once (its ledger in the mirror).
  notify: ['readings', 'mirror', 'api', 'items', 'util'],
  // lk schedule: a job installed as a systemd user timer or a crontab line; a job's run records its result (cli.ts).
  schedule: ['config', 'util'],
  context: ['api', 'export', 'mirror', 'output', 'config', 'util'],
  commands: [
    'context',
    'api',
    'export',
    'diff',
    'mirror',
    'convert',
    'feed',
    'report',
    'overview',
    'readings',
    'card',
    'mcp',
    'serve',
    'publish',
    'notify',
    'schedule',
    'output',
    'completion',
    'help',
    'extend',
    'config',
    'items',
    'util',
    'sandbox',
  ],
  cli: ['commands', 'context', 'api', 'output', 'config', 'man', 'help', 'schedule', 'util'],
};
const everyLayer = [...Object.keys(allowed), 'sandbox'];

/** A folder loop in `allowed` (a → b → … → a) as its path, or undefined: depcruise sees file cycles, not these. */
function folderLoop(graph) {
  const done = new Set();
  const visit = (name, path) => {
    if (path.includes(name)) return [...path.slice(path.indexOf(name)), name];
    if (done.has(name)) return undefined;
    for (const next of graph[name] ?? []) {
      const loop = visit(next, [...path, name]);
      if (loop) return loop;
    }
    done.add(name);
    return undefined;
  };
  for (const name of Object.keys(graph)) {
    const loop = visit(name, []);
    if (loop) return loop;
  }
  return undefined;
}
const loop = folderLoop(allowed);
if (loop) throw new Error(`.dependency-cruiser.cjs: the layers allowed form a loop (${loop.join(' → ')}): one of them must not import the next`);

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle ties two modules into one: break it by moving the shared piece down a layer.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...Object.entries(allowed).map(([from, to]) => ({
      name: `layers-${from}`,
      severity: 'error',
      comment: `src/${from} may import only from ${to.length ? to.map((name) => `src/${name}`).join(', ') : 'nothing else in src/'} (see README, Development).`,
      from: { path: layer(from) },
      to: { path: everyLayer.filter((name) => name !== from && !to.includes(name)).map(layer) },
    })),
    // output/ has three rooms under the wrapper's own modules (result, shape, session, show): terminal/ (the streams,
    // colours, widths, pager, prompts, progress), formats/ (how any value is written: table, csv, json, fields, jq),
    // wording/ (what a command says: its columns, screens and messages). Each room leans only on the ones before it.
    {
      name: 'output-terminal-room',
      severity: 'error',
      comment: 'src/output/terminal is the terminal and its streams: it knows no format, no command wording, no result.',
      from: { path: '^src/output/terminal/' },
      to: { path: '^src/output/(formats/|wording/|[^/]+\\.ts$)' },
    },
    {
      name: 'output-formats-room',
      severity: 'error',
      comment: 'src/output/formats writes any value in a format: it knows no command (its wording lives in src/output/wording).',
      from: { path: '^src/output/formats/' },
      to: { path: '^src/output/(wording/|[^/]+\\.ts$)' },
    },
    {
      name: 'field-paths-live-in-items',
      severity: 'error',
      comment:
        "A field of a server's item is read through src/items (one accessor per field, every spelling servers use, issue 58): util/object-path.ts, which reads a field by its path, is for src/items and for the generic output code (src/output/formats: a column's path, CSV flattening), which writes whatever paths it is handed.",
      from: { path: '^src/', pathNot: '^src/(items|output/formats|util)/' },
      to: { path: '^src/util/object-path\\.ts$' },
    },
    {
      name: 'sleep-lives-in-util',
      severity: 'error',
      comment:
        'Waiting (sleep, the Waiter type) and durations live in src/util (sleep.ts, units.ts), for every layer; api/rate-limit.ts is the pacing of requests, not a timer for the program or its output.',
      from: { path: '^src/(cli\\.ts$|output/|context\\.ts$|util/|config/)' },
      to: { path: '^src/api/rate-limit\\.ts$' },
    },
    {
      name: 'sandbox-stands-alone',
      severity: 'error',
      comment: 'The sandbox is a server of its own: it never imports the client (only the vocabulary both speak).',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: '^src/(sandbox/|vocabulary\\.ts$)' },
    },
    {
      name: 'no-unknown-layer',
      severity: 'error',
      comment: 'Every module belongs to a layer: a new folder needs its place in .dependency-cruiser.cjs and the README.',
      from: { path: '^src/', pathNot: `^src/(${everyLayer.join('|')})(/|\\.ts$)` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count too: a layer should not even know the shape of what lies above it.
    exclude: { path: '^(dist|node_modules)/' },
  },
};
