// Prints one plain closing line, `tests: N passed, N failed, N skipped`, after the run, and keeps
// the totals in test-artifacts/wtr-totals.json for scripts/test.mjs's line over every runner.
import { mkdirSync, writeFileSync } from 'node:fs';
function count(suite, totals) {
  for (const test of suite?.tests ?? []) {
    if (test.skipped) totals.skipped += 1;
    else if (test.passed) totals.passed += 1;
    else totals.failed += 1;
  }
  for (const child of suite?.suites ?? []) count(child, totals);
}

export function countingReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        count(session.testResults, totals);
        if (!session.passed && !session.testResults) totals.failed += 1;
      }
      this.totals = totals;
    },
    async stop() {
      const t = this.totals ?? { passed: 0, failed: 0, skipped: 0 };
      console.log(`tests: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
      mkdirSync('test-artifacts', { recursive: true });
      writeFileSync('test-artifacts/wtr-totals.json', JSON.stringify(t));
    },
  };
}
