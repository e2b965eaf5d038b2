// `npm test`: install what is missing, typecheck, lint (Biome), then web-test-runner's tests in Chromium,
// Firefox ESR and WebKitGTK (README, Tests; ENGINES=chromium for one), then the end-to-end tests
// through the demo embedder (node's test runner driving playwright-core). It ends with one line over
// every runner and engine: `all tests: N passed, N failed, N skipped (Chromium N, Firefox N, WebKit N, Node N, end-to-end N)`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';
import { ensureChromium } from './chromium.mjs';
import { ensureFirefox } from './firefox.mjs';
import { ensureWebKit } from './webkit.mjs';
import { ensureAge } from './age.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd, args, env = {}) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });

/** Runs a command showing its output as it comes, and answers the output and exit code. */
function tee(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (data) => {
      process.stdout.write(data);
      out += data;
    });
    child.on('close', (code) => resolve({ out, code: code ?? 1 }));
  });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
/** Adds a `node --test` run's counts (its spec reporter's closing lines) to the totals, as `name`. */
function countNode(out, code, name) {
  const count = (word) => Number(new RegExp(`^ℹ ${word} (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
  totals.passed += count('pass');
  const failed = count('fail') + count('cancelled');
  totals.failed += failed + (code !== 0 && failed === 0 ? 1 : 0);
  totals.skipped += count('skipped') + count('todo');
  runs[name] = count('pass') + failed + count('skipped') + count('todo');
  if (code !== 0) status ||= code;
}
/** Tests run per engine (web-test-runner's) and end to end: the closing line says each. */
const runs = {};
const engines = (process.env.ENGINES ?? 'chromium firefox webkit').split(/[\s,]+/).filter(Boolean);
let status = 0;
try {
  ensureDeps();
  if (engines.includes('chromium')) process.env.CHROME_PATH ||= ensureChromium();
  if (engines.includes('firefox')) process.env.FIREFOX_PATH ||= ensureFirefox();
  if (engines.includes('webkit')) ensureWebKit();
  // Debian's age reads and writes the backup tests' files (test/plugins/age.mjs).
  process.env.AGE_PATH ||= ensureAge();
  if (existsSync(`${root}scripts/endpoints.mjs`)) run('node', ['scripts/endpoints.mjs']);
  console.log('Typechecking (tsc --noEmit)…');
  run('npx', ['--no-install', 'tsc', '--noEmit', '-p', '.']);
  console.log('Linting and format check (npm run lint: biome check)…');
  run('npx', ['--no-install', 'biome', 'check', '.']);
  console.log('Import rules (scripts/check-imports.mjs: imports point down, through faces, no cycle)…');
  run('node', ['scripts/check-imports.mjs']);
  const wtrTotals = `${root}test-artifacts/wtr-totals.json`;
  const wtr = (env = {}) => {
    rmSync(wtrTotals, { force: true });
    try {
      run('npx', ['--no-install', 'web-test-runner', ...process.argv.slice(2)], env);
    } catch (error) {
      status ||= error.status ?? 1;
    }
    if (existsSync(wtrTotals)) {
      const counted = JSON.parse(readFileSync(wtrTotals, 'utf8'));
      for (const k of ['passed', 'failed', 'skipped']) totals[k] += counted[k];
      for (const [name, e] of Object.entries(counted.engines ?? {})) runs[name] = (runs[name] ?? 0) + e.passed + e.failed + e.skipped;
    }
  };
  // One engine after another: three browsers at once on 2 cores slow each other past every timing
  // test's baseline, and the whole past the suite's 20 minutes.
  for (const engine of engines) {
    if (process.argv.length <= 2) {
      // Two halves, each in a fresh browser: one Firefox over every file ran each test up to 1.8
      // times slower by the end (docs/tests.md).
      for (const part of ['1', '2']) {
        console.log(`The browser tests in ${engine}, half ${part} of 2…`);
        wtr({ ENGINES: engine, PART: part });
      }
    } else {
      console.log(`The browser tests in ${engine}…`);
      wtr({ ENGINES: engine });
    }
    if (process.argv.length <= 2) {
      console.log(`The panel's tests in ${engine}, alone (test/lock/panel.test.ts, PANEL=1)…`);
      wtr({ ENGINES: engine, PANEL: '1' });
    }
  }
  // The stress test on its own, in Chromium, once the rest is done (README, Limits).
  if (engines.includes('chromium') && process.argv.length <= 2) {
    console.log('The stress test, alone (test/limits/stress.test.ts, STRESS=1)…');
    wtr({ STRESS: '1' });
  }
  // Node's own tests of pure code and scripts (test/node/), counted as `Node`.
  {
    const { out, code } = await tee('node', ['--test', '--test-reporter=spec', 'test/node/']);
    countNode(out, code, 'Node');
  }
  if (process.env.SKIP_E2E !== '1') {
    const e2e = readdirSync(`${root}test/e2e`)
      .filter((f) => f.endsWith('.test.mjs'))
      .map((f) => `test/e2e/${f}`);
    console.log(`End-to-end tests through the demo (${e2e.join(', ')})…`);
    // Node's --test-timeout bounds each file as a whole too: a file's tests together get 5 minutes
    // (each test waits on its own conditions, with its own bounds).
    const { out, code } = await tee('node', ['--test', '--test-reporter=spec', '--test-timeout=300000', ...e2e]);
    countNode(out, code, 'end-to-end');
  }
} catch (error) {
  if (error.status === undefined) console.error(error.message);
  status = error.status ?? 1;
}
const each = Object.entries(runs)
  .map(([name, n]) => `${name} ${n}`)
  .join(', ');
console.log(`all tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped${each ? ` (${each})` : ''}`);
process.exit(status);
