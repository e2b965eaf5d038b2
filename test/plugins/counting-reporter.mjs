// Prints one plain closing line per run, `tests: N passed, N failed, N skipped (Chromium N, Firefox N, WebKit N)`,
// and keeps the totals, per engine too, in test-artifacts/wtr-totals.json for scripts/test.mjs's
// line over every runner (README, Tests).
import { mkdirSync, writeFileSync } from 'node:fs';

/** Each test of a suite with the milliseconds the runner timed it. */
function timed(suite, out = []) {
  for (const test of suite?.tests ?? []) out.push({ name: test.name, ms: Math.round(test.duration ?? 0) });
  for (const child of suite?.suites ?? []) timed(child, out);
  return out;
}

function count(suite, totals) {
  for (const test of suite?.tests ?? []) {
    if (test.skipped) totals.skipped += 1;
    else if (test.passed) totals.passed += 1;
    else totals.failed += 1;
  }
  for (const child of suite?.suites ?? []) count(child, totals);
}

/** The engine's name as the README says it: the chrome launcher runs Chromium, WebDriver WebKit's MiniBrowser. */
const engineOf = (session) => {
  const name = session.browser?.name ?? '';
  return /firefox/i.test(name) ? 'Firefox' : /minibrowser|webkit|safari/i.test(name) || session.browser?.type === 'webdriver' ? 'WebKit' : 'Chromium';
};
/** The engines in the order the closing lines name them. */
export const ENGINE_ORDER = ['Chromium', 'Firefox', 'WebKit'];

export function countingReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0, engines: {} };
      // Each file's time, slowest first, for finding what makes the suite long (docs/tests.md).
      this.files = sessions
        .map((session) => {
          const tests = timed(session.testResults).sort((a, b) => b.ms - a.ms);
          const ms = tests.reduce((sum, t) => sum + t.ms, 0);
          return { engine: engineOf(session), file: session.testFile.replace(`${process.cwd()}/`, ''), ms, slowest: tests.slice(0, 5) };
        })
        .sort((a, b) => b.ms - a.ms);
      for (const session of sessions) {
        const engine = (totals.engines[engineOf(session)] ??= { passed: 0, failed: 0, skipped: 0 });
        count(session.testResults, engine);
        if (!session.passed && !session.testResults) engine.failed += 1;
      }
      totals.engines = Object.fromEntries(Object.entries(totals.engines).sort(([a], [b]) => ENGINE_ORDER.indexOf(a) - ENGINE_ORDER.indexOf(b)));
      for (const engine of Object.values(totals.engines)) for (const k of ['passed', 'failed', 'skipped']) totals[k] += engine[k];
      this.totals = totals;
    },
    async stop() {
      const t = this.totals ?? { passed: 0, failed: 0, skipped: 0, engines: {} };
      const engines = Object.entries(t.engines).map(([name, e]) => `${name} ${e.passed + e.failed + e.skipped}`);
      console.log(`tests: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped (${engines.join(', ')})`);
      mkdirSync('test-artifacts', { recursive: true });
      writeFileSync('test-artifacts/wtr-totals.json', JSON.stringify(t));
      const ran = [...new Set((this.files ?? []).map((f) => f.engine))].join('-').toLowerCase() || 'none';
      writeFileSync(
        `test-artifacts/wtr-files-${ran}${process.env.PANEL ? '-panel' : ''}${process.env.PART ? `-part${process.env.PART}` : ''}.json`,
        JSON.stringify(this.files ?? [], null, 1),
      );
    },
  };
}
