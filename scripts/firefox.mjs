// Finds the Firefox the tests also run in (README, Tests: two engines): FIREFOX_PATH, else
// Debian's firefox-esr (or a firefox) on PATH. No test tool may download a browser (puppeteer's
// download is off in .puppeteerrc.cjs), so when none is found `ensureFirefox` installs Debian's
// firefox-esr package (as root), or says how to get one.
import { ensureCommand, findCommand } from './install.mjs';

const NAMES = ['firefox-esr', 'firefox'];

export const findFirefox = () => findCommand('FIREFOX_PATH', NAMES);

export const ensureFirefox = () =>
  ensureCommand({
    what: 'Firefox',
    env: 'FIREFOX_PATH',
    names: NAMES,
    pkg: 'firefox-esr',
    missing:
      'No Firefox found. Install one (Debian/Ubuntu: `sudo apt-get install firefox-esr`) or set FIREFOX_PATH to a Firefox executable; ENGINES=chromium runs the tests in Chromium alone.',
  });
