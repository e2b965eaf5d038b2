// Injector decisions per second with 1,000 records and 1,000 rules, next to a bare MessageChannel
// round trip measured in the same run (the least a `forward` costs bios). Then the worst patterns
// (README, Security): rule globs full of `*` and `**` and 256 registered endpoints of 2 KiB with 8
// `*` each, against 8 KiB paths, each decision timed, beside an ordinary decision of the same run.
// `node bench/forward.bench.mjs [--seconds N]`.
import { build } from 'esbuild';
import { MessageChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf('--seconds') + 1]) || 2;
const entry = fileURLToPath(new URL('../src/injector.ts', import.meta.url));
const { outputFiles } = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'error' });
const { decideForward } = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);

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
const input = (head) => ({
  head,
  exit: 'page',
  rawTraits: { manualRedirects: true },
  locked: false,
  now: Date.now(),
  records,
  rules,
  secrets,
  exits: {},
  refused,
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
console.log(`decideForward:                 ${f(decisions)} decisions/s (${(1e6 / decisions).toFixed(1)} µs each)`);
console.log(`MessageChannel round trip:     ${f(trips)} round trips/s (${(1e6 / trips).toFixed(1)} µs each)`);
console.log(`ratio:                         ${(decisions / trips).toFixed(2)} decisions per round trip`);

// ── The worst patterns ──────────────────────────────────────────────────────────────────────
const WORST = 'fnox_proxy_00000000000000000000ffff';
const worstRecords = new Map([[WORST, { name: 'WORST', kind: 'secret', placeholder: WORST, value: 'real-worst-value-xxxxxxxx' }]]);
const globs = ['/**/a/**/a/**/a/**/a/**/b', '**a**a**a**a**a**a**a**b', '/*/*/*/**/**/**/a/**/a/**/b', '/**/*a*a*a*a*/**/b', `/${'**/a/'.repeat(60)}b`];
const worstRules = Array.from({ length: 16 }, () => ({ secret: 'WORST', domain: 'api.example.com', header: 'authorization', methods: [], paths: globs }));
const piece = `${'a'.repeat(250)}b`;
const starred = `*${Array.from({ length: 7 }, () => piece).join('*')}*`; // 8 stars, about 1.8 KiB
const worstRefused = [
  ...refused,
  ...Array.from({ length: 256 }, (_, i) => ({ host: i % 2 ? 'api.example.com' : '*.example.com', path: `/${i % 4 < 2 ? starred : `a/${starred}`}` })),
];
const worstPaths = [`/${'a/'.repeat(4095)}c`, `/${'a'.repeat(8190)}c`, `/${'a%61/'.repeat(1364)}c`];
const worstHeads = worstPaths.map((path) => ({ method: 'GET', url: `https://api.example.com${path}`, headers: [['authorization', `Bearer ${WORST}`]] }));
const worstInput = (head) => ({
  head,
  exit: 'page',
  rawTraits: { manualRedirects: true },
  locked: false,
  now: Date.now(),
  records: worstRecords,
  rules: worstRules,
  exits: {},
  refused: worstRefused,
  secrets: { WORST },
});
const timings = worstHeads.map((head) => {
  for (let i = 0; i < 5; i++) decideForward(worstInput(head));
  const times = Array.from({ length: 30 }, () => {
    const t = performance.now();
    decideForward(worstInput(head));
    return performance.now() - t;
  }).sort((a, b) => a - b);
  return { median: times[15], max: times[29], path: head.url.length };
});
const ordinary = 1e3 / decisions;
console.log(`worst patterns (16 rules × 5 globs of * and **, 256 endpoints of 2 KiB with 8 *), 8 KiB paths:`);
for (const [i, t] of timings.entries()) {
  const shape = ['many segments', 'one long segment', 'percent-encoded segments'][i];
  console.log(`  ${shape.padEnd(26)} ${t.median.toFixed(3)} ms median, ${t.max.toFixed(3)} ms slowest of 30 (an ordinary decision: ${ordinary.toFixed(3)} ms)`);
}
const slowest = Math.max(...timings.map((t) => t.median));
console.log(`  ${slowest < 1 ? 'within' : 'OVER'} the 1 ms a decision may take`);
