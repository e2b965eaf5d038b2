// `npm test`: install what is missing, typecheck, then every test in Chromium.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
} catch (error) {
  if (error.status === undefined) console.error(error.message);
  process.exit(error.status ?? 1);
}
