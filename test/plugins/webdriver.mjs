// The test plugins' WebDriver side, for WebKit (scripts/webkit.mjs): classic WebDriver has no
// console events and no CDP, so these do what puppeteer does for Chromium and Firefox with the
// commands it has: windows by handle, frames by switching into them, input as actions, the
// console read from a recorder put into each document. Each helper leaves the driver on the
// test page's window and top frame, where the test runner expects it.

/** Whether the session's browser is driven over WebDriver (@web/test-runner-webdriver). */
export const isWebDriver = (session) => session.browser.type === 'webdriver';

/** The webdriverio browser of the session's launcher. */
export const driverOf = (session) => session.browser.driver;

/**
 * Put into a document by console-start and every read: keeps each console line and uncaught
 * error from then on (the lines before it are out of reach over classic WebDriver).
 */
const RECORDER = `
  if (!window.__consoleLines) {
    const lines = (window.__consoleLines = []);
    const text = (x) => (x instanceof Error ? String(x.stack ?? x) : typeof x === 'string' ? x : (() => { try { return JSON.stringify(x) ?? String(x); } catch { return String(x); } })());
    for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
      const original = console[level];
      console[level] = (...args) => {
        lines.push(args.map(text).join(' '));
        return original.apply(console, args);
      };
    }
    addEventListener('error', (e) => lines.push(String(e.error?.stack ?? e.message)));
    addEventListener('unhandledrejection', (e) => lines.push(text(e.reason)));
  }
  return window.__consoleLines;
`;

/** Every frame under the current one, depth first, each visited with `fn` while the driver is in it. */
async function eachFrame(driver, fn, depth = 0) {
  await fn();
  if (depth > 4) return;
  const count = await driver.execute('return window.frames.length');
  for (let i = 0; i < count; i++) {
    try {
      await driver.switchToFrame(i);
      await eachFrame(driver, fn, depth + 1);
    } catch {
      // A frame that went away under the walk.
    } finally {
      await driver.switchToParentFrame().catch(() => undefined);
    }
  }
}

/** The console lines of the current window and its frames, putting the recorder where there is none. */
export async function consoleLines(driver) {
  const lines = [];
  await eachFrame(driver, async () => {
    lines.push(...((await driver.execute(RECORDER).catch(() => [])) ?? []));
  });
  return lines;
}

/** The window handles and their URLs. */
async function windowsOf(driver) {
  const home = await driver.getWindowHandle();
  const windows = [];
  for (const handle of await driver.getWindowHandles()) {
    await driver.switchToWindow(handle);
    windows.push({ handle, url: await driver.getUrl().catch(() => '') });
  }
  await driver.switchToWindow(home);
  return windows;
}

/** The newest window whose URL contains `url` (the test page's without one), or null. */
export async function findWindow(driver, url) {
  if (!url) return driver.getWindowHandle();
  return (await windowsOf(driver)).filter((w) => w.url.includes(url)).at(-1)?.handle ?? null;
}

/** How many windows have a URL containing `url`. */
export const countWindows = async (driver, url) => (await windowsOf(driver)).filter((w) => w.url.includes(url)).length;

/** Runs `fn` with the driver in window `handle`, then back on the test page's window and top frame. */
export async function inWindow(driver, handle, fn) {
  const home = await driver.getWindowHandle();
  if (handle !== home) await driver.switchToWindow(handle);
  try {
    return await fn();
  } finally {
    if (handle !== home) await driver.switchToWindow(home);
    else await driver.switchToFrame(null);
  }
}

/** Switches into the first frame (at any depth) whose URL contains `frame`; false when there is none. */
export async function enterFrame(driver, frame) {
  let found = false;
  const search = async (depth) => {
    if ((await driver.execute('return location.href')).includes(frame)) return (found = true);
    if (depth > 4) return false;
    const count = await driver.execute('return window.frames.length');
    for (let i = 0; i < count; i++) {
      try {
        await driver.switchToFrame(i);
        if (await search(depth + 1)) return true;
      } catch {
        // gone meanwhile
      }
      await driver.switchToParentFrame().catch(() => undefined);
    }
    return false;
  };
  await search(0);
  return found;
}

/** Closes every window but the test page's whose URL contains one of `urls`. */
export async function closeWindows(driver, urls) {
  const home = await driver.getWindowHandle();
  for (const { handle, url } of await windowsOf(driver)) {
    if (handle === home || !urls.some((u) => url.includes(u))) continue;
    await driver.switchToWindow(handle);
    await driver.closeWindow().catch(() => undefined);
  }
  await driver.switchToWindow(home);
}

/** A real click at viewport point (x, y) of the current window. */
export const clickAt = (driver, x, y) =>
  driver.performActions([
    {
      type: 'pointer',
      id: 'mouse',
      parameters: { pointerType: 'mouse' },
      actions: [
        { type: 'pointerMove', duration: 0, x: Math.round(x), y: Math.round(y) },
        { type: 'pointerDown', button: 0 },
        { type: 'pointerUp', button: 0 },
      ],
    },
  ]);

/** WebDriver's key values for the key names the tests press (puppeteer's names). */
const KEYS = { Enter: '\uE007', Tab: '\uE004', Escape: '\uE00C', Backspace: '\uE003', Space: ' ', ArrowDown: '\uE015', ArrowUp: '\uE013' };
export const keyOf = (name) => KEYS[name] ?? name;
