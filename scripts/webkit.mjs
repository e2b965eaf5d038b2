// WebKit, the third engine the tests run in (README, Tests): Debian's WebKitGTK, its WebDriver
// (`WebKitWebDriver`, package webkit2gtk-driver) driving its MiniBrowser on a virtual display
// (`Xvfb`, package xvfb). Like the other browsers, `ensureWebKit` finds them (WEBKIT_DRIVER_PATH,
// MINIBROWSER_PATH, XVFB_PATH, else PATH and Debian's place), installs Debian's packages when
// missing (as root), or says how to get them. `startWebKit` starts a display and the driver,
// and stops both when this process ends.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { ensureCommand } from './install.mjs';

const MISSING = (what, pkg) =>
  `No ${what} found. Install it (Debian/Ubuntu: \`sudo apt-get install ${pkg}\`) or set its path; ENGINES="chromium firefox" runs the tests without WebKit.`;

/** MiniBrowser is not on PATH: Debian keeps it beside WebKitGTK's processes. */
function findMiniBrowser() {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  for (const lib of ['/usr/lib', ...readdirSync('/usr/lib').map((d) => `/usr/lib/${d}`)]) {
    if (!existsSync(lib)) continue;
    let dirs = [];
    try {
      dirs = readdirSync(lib).filter((d) => /^webkit2?gtk-[\d.]+$/.test(d));
    } catch {
      continue;
    }
    for (const dir of dirs.sort().reverse()) if (existsSync(`${lib}/${dir}/MiniBrowser`)) return `${lib}/${dir}/MiniBrowser`;
  }
  return null;
}

/** The driver, the browser and the display; installs Debian's webkit2gtk-driver and xvfb when missing. */
export function ensureWebKit() {
  const driver = ensureCommand({
    what: 'WebKitWebDriver',
    env: 'WEBKIT_DRIVER_PATH',
    names: ['WebKitWebDriver'],
    pkg: 'webkit2gtk-driver',
    missing: MISSING('WebKitWebDriver', 'webkit2gtk-driver'),
  });
  const xvfb = ensureCommand({ what: 'Xvfb', env: 'XVFB_PATH', names: ['Xvfb'], pkg: 'xvfb', missing: MISSING('Xvfb', 'xvfb') });
  const browser = findMiniBrowser();
  if (!browser) throw new Error(MISSING("WebKitGTK's MiniBrowser (MINIBROWSER_PATH)", 'webkit2gtk-driver'));
  return { driver, xvfb, browser };
}

/** A free port on 127.0.0.1 (web-test-runner.config.mjs takes its servers' ports from here too). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The display Xvfb chose (-displayfd: it writes the number once it listens), within `ms`. */
function startDisplay(xvfb, ms = 30_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb gave no display within ${ms} ms`)), ms);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`Xvfb ended (${code}) before giving a display`)));
    child.stdio[3].on('data', (data) => {
      out += data;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve({ child, display: `:${out.trim()}` });
      }
    });
  });
}

/**
 * Starts Xvfb and WebKitWebDriver on a free port; both end with this process. `onLine` gets each
 * line the browser writes on stdout: MiniBrowser runs with console messages written there (the
 * driver has no BiDi, so that is how a test reads the page's and its frames' console).
 */
export async function startWebKit({ onLine } = {}) {
  const { driver, xvfb, browser } = ensureWebKit();
  const { child: display, display: DISPLAY } = await startDisplay(xvfb);
  const port = await freePort();
  const child = spawn(driver, [`--port=${port}`], { env: { ...process.env, DISPLAY }, stdio: ['ignore', 'pipe', 'inherit'] });
  let rest = '';
  child.stdout.on('data', (data) => {
    const lines = (rest + data).split('\n');
    rest = lines.pop();
    for (const line of lines) onLine?.(line);
  });
  const stop = () => {
    child.kill();
    display.kill();
  };
  process.once('exit', stop);
  const capabilities = {
    browserName: 'MiniBrowser',
    // The driver speaks classic WebDriver only: without this webdriverio asks for BiDi and is refused.
    'wdio:enforceWebDriverClassic': true,
    'webkitgtk:browserOptions': { binary: browser, args: ['--automation', '--enable-write-console-messages-to-stdout=true'] },
  };
  return { port, capabilities, stop };
}
