// Injector decisions per second (the URL read, one decision over a plan prepared once, one fill)
// with 1,000 records and 1,000 rules, next to a bare MessageChannel round trip measured in the same
// run (the least a `forward` costs bios). Then the worst patterns
// (README, Security): rule globs full of `*` and `**` and 256 registered endpoints of 2 KiB with 8
// `*` each, against 8 KiB paths, each decision timed, beside an ordinary decision of the same run.
// `node bench/forward.bench.mjs [--seconds N]`.
import { build } from 'esbuild';
import { MessageChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf('--seconds') + 1]) || 2;
// The folder's face, and the plan's own preparation (the vault prepares it inside the folder).
const contents = "export * from './index.ts'; export { preparePolicy } from './plan.ts';";
const resolveDir = fileURLToPath(new URL('../src/inject/', import.meta.url));
const { outputFiles } = await build({
  stdin: { contents, resolveDir, loader: 'ts' },
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  write: false,
  logLevel: 'error',
});
const { decide, fill, planRecord, preparePolicy, readUrl } = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);

// A namespace's plan, prepared once as the vault prepares it per change (rules' globs compiled).
const planOf = ({ records, rules, secrets, exits, refused }) => ({
  policy: preparePolicy({ rules, secrets, exits, refused, mcp: [], models: [], known: new Set() }),
  records: new Map([...records].map(([p, r]) => [p, planRecord(r, new Set())])),
  bound: { model: [], mcp: [] },
});
/** Each record's value by name: what the vault decrypts for the names a decision gives. */
const valuesOf = (records) => new Map([...records.values()].map((r) => [r.name, r.value]));
/** A plain forward's work per request: the URL read once, one decision (the rules'), one fill. */
function decideForward({ plan, values: all, head, exit, rawTraits, locked, now }) {
  const d = decide(plan, { head, url: readUrl(head.url), exit, rawTraits }, { locked, now }, { kind: 'secret' });
  if (!d.inject) return d;
  const values = new Map(d.names.map((name) => [name, all.get(name)]));
  const filled = fill(d, head, values);
  return filled.inject ? { ...filled, uses: d.uses } : filled;
}

const N = 1000;
const ph = (i) => `fnox_proxy_${i.toString(16).padStart(24, '0')}`;
const records = new Map();
const rules = [];
for (let i = 0; i < N; i++) {
  records.set(ph(i), { name: `SECRET_${i}`, kind: 'secret', placeholder: ph(i), value: `real-value-${i}-${'x'.repeat(32)}` });
  rules.push({
    secret: `SECRET_${i}`,
    domain: `api${i % 100}.example.com`,
    header: 'authorization',
    methods: ['GET', 'POST'],
    paths: [`/v${i % 7}/**`, '/repos/*/issues'],
  });
}
const refused = [
  { host: 'api.openai.com', path: '/v1' },
  { host: '*.openai.azure.com', path: '/' },
  { host: 'bedrock-runtime.*.amazonaws.com', path: '/' },
];
// Four in five requests are injected; the rest are refused at different depths.
const heads = Array.from({ length: 1000 }, (_, j) => {
  const i = (j * 7919) % N;
  const kind = j % 5;
  const url = kind === 1 ? `https://api${i % 100}.example.com/admin` : `https://api${i % 100}.example.com/v${i % 7}/items/${j}?page=2`;
  const headers = [
    ['accept', 'application/json'],
    ['authorization', kind === 2 ? `Basic ${btoa(`me:${ph(i)}`)}` : `Bearer ${ph(i)}`],
    ['user-agent', 'bench'],
  ];
  return { method: 'GET', url, headers };
});
// Every record is active: the accepted config's [secrets] holds its placeholder.
const secrets = Object.fromEntries([...records.values()].map((r) => [r.name, r.placeholder]));
const plan = planOf({ records, rules, secrets, exits: {}, refused });
const values = valuesOf(records);
const input = (head) => ({
  plan,
  values,
  head,
  exit: 'page',
  rawTraits: { manualRedirects: true },
  locked: false,
  now: Date.now(),
});

let injected = 0;
for (const head of heads) if (decideForward(input(head)).inject) injected++;

function decisionsPerSecond(ms) {
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) for (let k = 0; k < 100; k++) decideForward(input(heads[n++ % heads.length]));
  return n / (ms / 1000);
}
async function roundTripsPerSecond(ms) {
  const { port1, port2 } = new MessageChannel();
  port2.on('message', (m) => port2.postMessage(m));
  const trip = (m) =>
    new Promise((resolve) => {
      port1.once('message', resolve);
      port1.postMessage(m);
    });
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) await trip({ v: 1, id: n, op: 'forward', head: heads[n++ % heads.length] });
  port1.close();
  return n / (ms / 1000);
}

decisionsPerSecond(300);
await roundTripsPerSecond(300);
const decisions = decisionsPerSecond(seconds * 1000);
const trips = await roundTripsPerSecond(seconds * 1000);
const f = (n) => Math.round(n).toLocaleString('en');
console.log(`Node ${process.version}; ${N} records, ${N} rules; ${injected / 10}% of the requests injected`);
console.log(`decide + fill:                 ${f(decisions)} decisions/s (${(1e6 / decisions).toFixed(1)} µs each)`);
console.log(`MessageChannel round trip:     ${f(trips)} round trips/s (${(1e6 / trips).toFixed(1)} µs each)`);
console.log(`ratio:                         ${(decisions / trips).toFixed(2)} decisions per round trip`);

// ── The worst patterns ──────────────────────────────────────────────────────────────────────
// Every row must reach every stage: the URL checks (the whole 8 KiB URL within its limit, so the
// ambiguous-path check reads every segment), the broad reading against all 256 registered
// endpoints (none of which matches, so none stops the loop), and the rule globs: 16 rules of 5
// distinct globs each, all for the secret, host and header of the request, so every glob runs
// over the whole path and only the last glob of the last rule matches. The verdict is printed: a
// row refused before the globs would measure nothing.
const WORST = 'fnox_proxy_00000000000000000000ffff';
const HOST = 'https://api.example.com';
const worstRecords = new Map([[WORST, { name: 'WORST', kind: 'secret', placeholder: WORST, value: 'real-worst-value-xxxxxxxx' }]]);
// The paths all end `/c/b`; each glob but the last needs an `a` after the `c`, so it fails only at the end.
const globsOf = (r) => [
  `/**/a/**/a/**/a/**/a/**/c/**/a/**/b${'?'.repeat(r % 2)}`,
  `/**a**a**a**a**a**a**a**c**a**b${'/'.repeat(r % 2)}`,
  `/*/*/*/**/**/**/a/**/a/**/c/**/a/**/${'*'.repeat(1 + (r % 2))}b`,
  `/**/*a*a*a*a*/**/c/*a*${'?'.repeat(r % 3)}/b`,
  `/${'**/a/'.repeat(60 - r)}**/c/a/b`,
];
const worstRules = Array.from({ length: 16 }, (_, r) => ({
  secret: 'WORST',
  domain: 'api.example.com',
  header: 'authorization',
  methods: [],
  paths: r === 15 ? [...globsOf(r).slice(0, 4), '/**/c/*'] : globsOf(r),
}));
// 256 endpoints on the request's host, each about 2 KiB with 8 `*`, each failing late: one long
// segment whose ends (a segment with `*` is compared by the text before its first `*` and after
// its last, README, Model and MCP endpoints) are runs of the long-segment paths' own characters
// but for the last one, and long runs of literal segments (`a` or `aa`, the broad reading of
// `a%61`) with a wrong one near the end.
const piece = (i) => `${`${'a'.repeat(199)}b`.repeat(3)}${'a'.repeat(i >> 2)}x`;
const starred = (i) => `${piece(i)}${'*m'.repeat(7)}*${piece(i)}`;
const literal = (seg, i) => `${`${seg}/`.repeat(Math.floor(1900 / (seg.length + 1)) - (i % 16))}*/*/*/*/*/*/*/*/z`;
const worstRefused = [
  ...refused,
  ...Array.from({ length: 256 }, (_, i) => ({
    host: i % 2 ? 'api.example.com' : '*.example.com',
    path: `/${[starred(i), literal('a', i), literal('aa', i), `a/${starred(i)}`][i % 4]}`,
  })),
];
const filled = (unit, tail) => `/${unit.repeat(Math.floor((8192 - HOST.length - 1 - tail.length) / unit.length))}${tail}`;
const worstRows = [
  ['many segments', filled('a/', 'c/b')],
  ['one long segment', filled('a', 'b/c/b')],
  // The endpoints' ends agree with this segment for 600 characters and more before they fail.
  ['long segment, frequent chars', filled(`${'a'.repeat(199)}b`, '/c/b')],
  ['percent-encoded segments', filled('a%61/', 'c/b')],
  ['percent-encoded long segment', filled('%61', '%62/c/b')],
  ['`;`, case and `//`', filled('A;x//', 'c/b')],
];
const worstPlan = planOf({ records: worstRecords, rules: worstRules, secrets: { WORST }, exits: {}, refused: worstRefused });
const worstValues = valuesOf(worstRecords);
const worstInput = (head) => ({
  plan: worstPlan,
  values: worstValues,
  head,
  exit: 'page',
  rawTraits: { manualRedirects: true },
  locked: false,
  now: Date.now(),
});
// Wall time, and the process's CPU time (less swayed by other work on a loaded machine).
const timed = (f) => {
  const cpu = process.cpuUsage();
  const t = performance.now();
  f();
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
};
const spread = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1], max: sorted[sorted.length - 1] };
};
const headOf = (path) => ({ method: 'GET', url: `${HOST}${path}`, headers: [['authorization', `Bearer ${WORST}`]] });
// The first decision of each row, cold (entries prepared, automata built, code not yet optimised)…
const firsts = worstRows.map(([, path]) => timed(() => decideForward(worstInput(headOf(path)))).wall);
// …then every row warmed alike: the engine optimises the matchers after some dozens of calls.
for (let i = 0; i < 60; i++) for (const [, path] of worstRows) decideForward(worstInput(headOf(path)));
const timings = worstRows.map(([shape, path], row) => {
  const head = headOf(path);
  const verdict = decideForward(worstInput(head));
  const first = firsts[row];
  const runs = Array.from({ length: 30 }, () => timed(() => decideForward(worstInput(head))));
  const said = verdict.inject ? `injected by ${verdict.uses[0].rule.paths.at(-1)}` : `refused: ${verdict.reason.slice(0, 60)}`;
  return { shape, first, wall: spread(runs.map((r) => r.wall)), cpu: spread(runs.map((r) => r.cpu)), bytes: Buffer.byteLength(head.url), said };
});
const ordinary = 1e3 / decisions;
console.log('worst patterns (16 rules × 5 distinct globs of * and **, 256 endpoints of about 2 KiB with 8 *), 8 KiB URLs, ms per decision once warm:');
const ms = (x) => x.toFixed(3).padStart(7);
for (const t of timings) {
  console.log(
    `  ${t.shape.padEnd(29)} wall ${ms(t.wall.median)} median ${ms(t.wall.max)} slowest of 30; CPU ${ms(t.cpu.median)} median ${ms(t.cpu.max)} slowest; first, cold: ${ms(t.first)} (${t.bytes} bytes; ${t.said})`,
  );
}
console.log(`  an ordinary decision: ${ordinary.toFixed(3)} ms`);
const slowest = Math.max(...timings.map((t) => t.wall.max));
const reachedGlobs = timings.every((t) => t.said.startsWith('injected'));
console.log(
  `  ${slowest < 1 ? 'within' : 'OVER'} the 1 ms a decision may take; ${reachedGlobs ? 'every row reached the last glob' : 'SOME ROW STOPPED BEFORE THE GLOBS'}`,
);
