// `npm start`, `npm test` and `npm run build` work on a fresh clone: install what is missing first.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const marker = `${root}node_modules/.package-lock.json`;

export function ensureDeps() {
  const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync(`${root}package-lock.json`).mtimeMs;
  if (stale) {
    console.log('Dependencies missing or out of date: running npm ci…');
    execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDeps();
