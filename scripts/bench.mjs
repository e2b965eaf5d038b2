// `npm run bench`: runs every bench/*.bench.mjs in turn, each in its own Node process.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = readdirSync(`${root}bench`)
  .filter((f) => f.endsWith('.bench.mjs'))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n── bench/${file} ──`);
  try {
    execFileSync(process.execPath, [`bench/${file}`, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  } catch (error) {
    failed++;
    console.error(`bench/${file} failed (${error.status ?? error.message})`);
  }
}
process.exit(failed ? 1 : 0);
