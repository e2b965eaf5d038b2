// Finds the `age` command the backup tests read and write files with (README, Backup and restore):
// AGE_PATH, else `age` on PATH. Like Chromium, when it is missing `ensureAge` installs Debian's
// package (as root), or says how to get it. The vault itself never needs it.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findAge() {
  if (process.env.AGE_PATH) return executable(process.env.AGE_PATH) ? process.env.AGE_PATH : null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && executable(join(dir, 'age'))) return join(dir, 'age');
  return null;
}

export function ensureAge() {
  const found = findAge();
  if (found) return found;
  if (process.env.AGE_PATH) throw new Error(`AGE_PATH is ${process.env.AGE_PATH}, which is not an executable file.`);
  if (existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get') && process.getuid?.() === 0) {
    console.log("No age found: installing Debian's age package (apt-get install -y age)…");
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'age'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    const installed = findAge();
    if (installed) return installed;
  }
  throw new Error('No age command found. Install it (Debian/Ubuntu: `sudo apt-get install age`) or set AGE_PATH to an age executable.');
}
