// Finds the Chromium the tests run in: CHROME_PATH, else the usual names on PATH. No test tool may
// download a browser, so when none is found `ensureChromium` installs Debian's package (as root),
// or says how to get one.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findChromium() {
  if (process.env.CHROME_PATH) return executable(process.env.CHROME_PATH) ? process.env.CHROME_PATH : null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of NAMES) if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** The flags Chromium needs here: root has no sandbox, and the machine has no network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-gpu',
  '--disable-dev-shm-usage',
];

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (process.env.CHROME_PATH) {
    throw new Error(`CHROME_PATH is ${process.env.CHROME_PATH}, which is not an executable file.`);
  }
  const debian = existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get');
  if (debian && process.getuid?.() === 0) {
    console.log("No Chromium found: installing Debian's chromium package (apt-get install -y chromium)…");
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error('No Chromium found. Install one (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROME_PATH to a Chromium or Chrome executable.');
}
