// `npm test`: install what is missing, typecheck, then every test in Chromium: web-test-runner's,
// then the end-to-end tests through the demo embedder (node's test runner driving playwright-core).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';
import { ensureChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

try {
  ensureDeps();
  process.env.CHROME_PATH ||= ensureChromium();
  if (existsSync(`${root}scripts/endpoints.mjs`)) run('node', ['scripts/endpoints.mjs']);
  console.log('Typechecking (tsc --noEmit)…');
  run('npx', ['--no-install', 'tsc', '--noEmit', '-p', '.']);
  run('npx', ['--no-install', 'web-test-runner', ...process.argv.slice(2)]);
  if (process.env.SKIP_E2E !== '1') {
    const e2e = readdirSync(`${root}test/e2e`).filter((f) => f.endsWith('.test.mjs')).map((f) => `test/e2e/${f}`);
    console.log(`End-to-end tests through the demo (${e2e.join(', ')})…`);
    run('node', ['--test', '--test-reporter=spec', '--test-timeout=90000', ...e2e]);
  }
} catch (error) {
  if (error.status === undefined) console.error(error.message);
  process.exit(error.status ?? 1);
}
