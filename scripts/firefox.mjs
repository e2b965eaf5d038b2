// Finds the Firefox the tests also run in (README, Tests: two engines): FIREFOX_PATH, else
// Debian's firefox-esr (or a firefox) on PATH. No test tool may download a browser (puppeteer's
// download is off in .puppeteerrc.cjs), so when none is found `ensureFirefox` installs Debian's
// firefox-esr package (as root), or says how to get one.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['firefox-esr', 'firefox'];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findFirefox() {
  if (process.env.FIREFOX_PATH) return executable(process.env.FIREFOX_PATH) ? process.env.FIREFOX_PATH : null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of NAMES) if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

export function ensureFirefox() {
  const found = findFirefox();
  if (found) return found;
  if (process.env.FIREFOX_PATH) {
    throw new Error(`FIREFOX_PATH is ${process.env.FIREFOX_PATH}, which is not an executable file.`);
  }
  const debian = existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get');
  if (debian && process.getuid?.() === 0) {
    console.log("No Firefox found: installing Debian's firefox-esr package (apt-get install -y firefox-esr)…");
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'firefox-esr'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    const installed = findFirefox();
    if (installed) return installed;
  }
  throw new Error(
    'No Firefox found. Install one (Debian/Ubuntu: `sudo apt-get install firefox-esr`) or set FIREFOX_PATH to a Firefox executable; ENGINES=chromium runs the tests in Chromium alone.',
  );
}
