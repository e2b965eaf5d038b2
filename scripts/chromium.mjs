// Finds the Chromium the tests run in: CHROME_PATH, else the usual names on PATH. No test tool may
// download a browser, so when none is found `ensureChromium` installs Debian's package (as root),
// or says how to get one.
import { ensureCommand, findCommand } from './install.mjs';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];

export const findChromium = () => findCommand('CHROME_PATH', NAMES);

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

export const ensureChromium = () =>
  ensureCommand({
    what: 'Chromium',
    env: 'CHROME_PATH',
    names: NAMES,
    pkg: 'chromium',
    missing: 'No Chromium found. Install one (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROME_PATH to a Chromium or Chrome executable.',
  });
