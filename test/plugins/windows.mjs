// A test-runner plugin that drives the test page's other windows (the lock popup) and frames the
// way a person would, with real mouse and keyboard input through puppeteer, and takes screenshots.
// Tests call it with executeServerCommand('window', { action, url?, ... }); `url` is a substring
// of the page's (or frame's) URL, and without it the action is on the test page itself.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { clickAt, closeWindows, consoleLines, countWindows, driverOf, enterFrame, findWindow, inWindow, isWebDriver, keyOf } from './webdriver.mjs';

const ARTIFACTS = resolve('test-artifacts');

async function pageOf(session, url) {
  const page = session.browser.getPage(session.id);
  if (!url) return page;
  const pages = (await page.browser().pages()).filter((p) => p.url().includes(url));
  return pages.at(-1) ?? null;
}

/** Console lines and errors of every other window a test drove, per test session. */
const logs = new Map();
const listened = new WeakSet();

function listen(session, page) {
  if (listened.has(page) || page === session.browser.getPage(session.id)) return;
  listened.add(page);
  if (!logs.has(session.id)) logs.set(session.id, []);
  const lines = logs.get(session.id);
  page.on('console', (msg) => lines.push(msg.text()));
  page.on('pageerror', (error) => lines.push(String(error?.stack ?? error)));
}

async function waitForPage(session, url, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const page = await pageOf(session, url);
    if (page) {
      listen(session, page);
      return page;
    }
    if (Date.now() > end) throw new Error(`window: no page whose URL contains ${url} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The centre of the first button in the element's shadow root whose text is `text`, scrolled into view. */
const findButton = (host, text) => {
  const root = document.querySelector(host)?.shadowRoot;
  const button = [...(root?.querySelectorAll('button') ?? [])].find((b) => b.textContent.trim() === text && !b.disabled);
  if (!button) return null;
  button.scrollIntoView({ block: 'nearest' });
  const r = button.getBoundingClientRect();
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
};

/** The centre of the enabled field `id` in the element's shadow root (the panel's, in its frame), scrolled into view. */
const findField = (host, id) => {
  const field = document.querySelector(host)?.shadowRoot?.getElementById(id);
  if (!field || field.disabled) return null;
  field.scrollIntoView({ block: 'nearest' });
  const r = field.getBoundingClientRect();
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
};

/** Where the iframe whose src contains `src` puts its content in the page (its border box plus border). */
const frameOrigin = (src) => {
  const frame = [...document.querySelectorAll('iframe')].find((f) => f.src.includes(src));
  if (!frame) return null;
  const r = frame.getBoundingClientRect();
  return { x: r.x + frame.clientLeft, y: r.y + frame.clientTop };
};

/** A file of `text` named `name` on this machine, for a file input: what a person picks in the dialog. */
async function fileOf(name, text) {
  const path = join(await mkdtemp(join(tmpdir(), 'slicc-upload-')), name);
  await writeFile(path, text);
  return path;
}

/** The script that answers the enabled file input `id` in `host`'s shadow root. */
const fileInput = (host, id) => `const input = document.querySelector(${JSON.stringify(host)})?.shadowRoot?.getElementById(${JSON.stringify(id)});
  return input && !input.disabled ? input : null;`;

/** Polls `find` every 50 ms until it answers something, or throws `error` after `ms`. */
async function until(find, ms, error) {
  const end = Date.now() + ms;
  for (;;) {
    const found = await find();
    if (found) return found;
    if (Date.now() > end) throw new Error(error);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The same actions over classic WebDriver (WebKit: test/plugins/webdriver.mjs). */
async function overWebDriver(session, payload) {
  const driver = driverOf(session);
  const { action, url, ms = 15000 } = payload;
  const waitWindow = () => until(() => findWindow(driver, url), ms, `window: no page whose URL contains ${url} within ${ms} ms`);
  const inPage = async (fn) => inWindow(driver, await waitWindow(), fn);
  /** Runs `fn` inside the frame `payload.frame` names (if it names one), then back at the top. */
  const inFrame = async (fn) => {
    if (!payload.frame) return (await fn()) ?? true;
    await until(() => enterFrame(driver, payload.frame), ms, `window: no frame whose URL contains ${payload.frame}`);
    try {
      return (await fn()) ?? true;
    } finally {
      await driver.switchToFrame(null);
    }
  };
  switch (action) {
    case 'wait':
      return inPage(() => driver.getUrl());
    case 'goto': {
      const home = await driver.getWindowHandle();
      const { handle } = await driver.createWindow('window');
      try {
        await driver.switchToWindow(handle);
        await driver.navigateTo(payload.href);
        return await driver.getUrl();
      } finally {
        await driver.switchToWindow(home);
      }
    }
    case 'count':
      return countWindows(driver, url);
    case 'click-frame':
      return inPage(async () => {
        const centre = `const frame = [...document.querySelectorAll('iframe')].find((f) => f.src.includes(arguments[0]));
          if (!frame) return null;
          const r = frame.getBoundingClientRect();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2 };`;
        const at = await until(() => driver.execute(centre, payload.frame), ms, `window: no frame ${payload.frame} in ${url}`);
        await clickAt(driver, at.x, at.y);
        return true;
      });
    case 'open': {
      const handle = await findWindow(driver, url);
      return handle ? inWindow(driver, handle, () => driver.getUrl()) : '';
    }
    case 'closed':
      return until(async () => !(await findWindow(driver, url)), ms, 'still open').catch(() => false);
    case 'close':
      await closeWindows(driver, [url, payload.also].filter(Boolean));
      return true;
    case 'click':
    case 'click-field': {
      // A real click on a button by its text, or on a field by its id, in `host`'s shadow root: in
      // the page, or in its frame whose URL contains `frame` (the panel), at the page's coordinates.
      const [find, arg, what] =
        action === 'click' ? [findButton, payload.text, `enabled button "${payload.text}"`] : [findField, payload.field, `enabled field ${payload.field}`];
      return inPage(async () => {
        const at = await until(
          async () => {
            let offset = { x: 0, y: 0 };
            if (payload.frame) {
              offset = await driver.execute(`return (${frameOrigin})(arguments[0])`, payload.frame);
              if (!offset || !(await enterFrame(driver, payload.frame))) return null;
            }
            try {
              const inner = await driver.execute(`return (${find})(arguments[0], arguments[1])`, payload.host ?? 'vault-popup', arg);
              return inner && { x: offset.x + inner.x, y: offset.y + inner.y };
            } finally {
              if (payload.frame) await driver.switchToFrame(null);
            }
          },
          ms,
          `window: no ${what} in ${url ?? 'the test page'}${payload.frame ? ` (frame ${payload.frame})` : ''}`,
        );
        await clickAt(driver, at.x, at.y);
        return true;
      });
    }
    case 'upload': {
      // A file chosen in the file input `field` (in the frame `frame`): its change event is the browser's.
      const path = await fileOf(payload.name, payload.text);
      return inPage(async () => {
        if (payload.frame) await until(() => enterFrame(driver, payload.frame), ms, `window: no frame whose URL contains ${payload.frame}`);
        try {
          const input = await until(
            () => driver.execute(fileInput(payload.host ?? 'vault-popup', payload.field)),
            ms,
            `window: no file input ${payload.field}`,
          );
          await driver.elementSendKeys(input['element-6066-11e4-a52e-4f735466cecf'], path);
        } finally {
          if (payload.frame) await driver.switchToFrame(null);
        }
        return true;
      });
    }
    case 'focus-field':
      return inPage(async () => {
        const focus = `const field = document.querySelector('vault-popup')?.shadowRoot?.getElementById(arguments[0]); field?.focus(); return Boolean(field);`;
        await until(() => driver.execute(focus, payload.field), ms, `window: no field ${payload.field} in ${url}`);
        return true;
      });
    // Keys go to the frame they are for: sent from the top page, WebKitGTK's driver never delivers
    // them into a cross-origin frame's focused field. One key per command: given a run of keys, it
    // drops some ("a long backup passphrase" arrives as "a longbackupasphrase").
    case 'type':
      return inPage(() =>
        inFrame(async () => {
          for (const key of payload.text) await driver.keys([key]);
        }),
      );
    case 'press':
      return inPage(() =>
        inFrame(async () => {
          for (const key of [].concat(payload.key)) await driver.keys(keyOf(key));
        }),
      );
    case 'evaluate':
      return inPage(() => inFrame(() => driver.execute(`return (${payload.expression});`)));
    case 'screenshot': {
      // The whole viewport: classic WebDriver takes no clip.
      const path = resolve(ARTIFACTS, payload.name);
      if (!path.startsWith(ARTIFACTS)) throw new Error('window: screenshots go under test-artifacts/');
      await mkdir(dirname(path), { recursive: true });
      await inPage(() => driver.saveScreenshot(path));
      return payload.name;
    }
    case 'console-lines': {
      const home = await driver.getWindowHandle();
      const lines = [];
      for (const handle of await driver.getWindowHandles()) if (handle !== home) lines.push(...(await inWindow(driver, handle, () => consoleLines(driver))));
      return lines;
    }
    default:
      throw new Error(`window: ${action} is not available over WebDriver`);
  }
}

export function windowsPlugin() {
  return {
    name: 'windows',
    async executeCommand({ command, payload, session }) {
      if (command !== 'window') return undefined;
      if (payload?.action === 'headers') {
        // A document's response headers as the server sends them (the page can't read them cross-origin).
        const response = await fetch(payload.href);
        return Object.fromEntries(response.headers);
      }
      if (isWebDriver(session)) return overWebDriver(session, payload ?? {});
      // Windows take seconds to open on a loaded machine (Firefox most): wait on them generously.
      const { action, url, ms = 15000 } = payload ?? {};
      switch (action) {
        case 'wait': {
          const page = await waitForPage(session, url, ms);
          return page.url();
        }
        case 'goto': {
          // A new top-level page at `href`, with no opener: how a test opens an embedder served with its own headers.
          const page = await session.browser.getPage(session.id).browser().newPage();
          listen(session, page);
          await page.goto(payload.href);
          await page.bringToFront();
          return page.url();
        }
        case 'count': {
          const page = session.browser.getPage(session.id);
          return (await page.browser().pages()).filter((p) => p.url().includes(url)).length;
        }
        case 'click-frame': {
          // A real click in the middle of the iframe whose src contains `frame`, in the page `url`.
          const page = await waitForPage(session, url, ms);
          // In front: a page behind others is hidden, and the panel takes no input while it isn't seen (IntersectionObserver v2).
          await page.bringToFront();
          const centre = (src) => {
            const frame = [...document.querySelectorAll('iframe')].find((f) => f.src.includes(src));
            if (!frame) return null;
            const r = frame.getBoundingClientRect();
            return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
          };
          const end = Date.now() + ms;
          let at = null;
          while (!(at = await page.evaluate(centre, payload.frame))) {
            if (Date.now() > end) throw new Error(`window: no frame ${payload.frame} in ${url}`);
            await new Promise((r) => setTimeout(r, 50));
          }
          await page.mouse.click(at.x, at.y);
          return true;
        }
        case 'open': {
          const page = await pageOf(session, url);
          // '' for none: a command that returns null or undefined counts as not handled.
          return page ? page.url() : '';
        }
        case 'closed': {
          const end = Date.now() + ms;
          while (await pageOf(session, url)) {
            if (Date.now() > end) return false;
            await new Promise((r) => setTimeout(r, 50));
          }
          return true;
        }
        case 'close': {
          const page = session.browser.getPage(session.id);
          // `also`: a second URL whose pages close too, in the same command.
          const urls = [url, payload.also].filter(Boolean);
          for (const p of await page.browser().pages()) if (p !== page && urls.some((u) => p.url().includes(u))) await p.close();
          return true;
        }
        case 'click':
        case 'click-field': {
          // A real click on a button found by its text, or a field by its id, in `host`'s shadow root:
          // in the page, or in its frame whose URL contains `frame` (the panel), at the page's coordinates.
          const page = await waitForPage(session, url, ms);
          // In front: a page behind others is hidden, and the panel takes no input while it isn't seen (IntersectionObserver v2).
          await page.bringToFront();
          const [find, arg, what] =
            action === 'click' ? [findButton, payload.text, `enabled button "${payload.text}"`] : [findField, payload.field, `enabled field ${payload.field}`];
          const locate = async () => {
            if (!payload.frame) return page.evaluate(find, payload.host ?? 'vault-popup', arg);
            const offset = await page.evaluate(frameOrigin, payload.frame);
            const frame = page.frames().find((f) => f.url().includes(payload.frame));
            const inner = offset && frame ? await frame.evaluate(find, payload.host ?? 'vault-popup', arg).catch(() => null) : null;
            return inner && { x: offset.x + inner.x, y: offset.y + inner.y };
          };
          const end = Date.now() + ms;
          let at = null;
          while (!(at = await locate())) {
            if (Date.now() > end) throw new Error(`window: no ${what} in ${url ?? 'the test page'}${payload.frame ? ` (frame ${payload.frame})` : ''}`);
            await new Promise((r) => setTimeout(r, 50));
          }
          await page.mouse.click(at.x, at.y);
          return true;
        }
        case 'upload': {
          // A file chosen in the file input `field` (in the frame `frame`): its change event is the browser's.
          const page = await waitForPage(session, url, ms);
          const path = await fileOf(payload.name, payload.text);
          const end = Date.now() + ms;
          for (;;) {
            const target = payload.frame ? page.frames().find((f) => f.url().includes(payload.frame)) : page;
            const handle = target
              ? await target.evaluateHandle(`(() => { ${fileInput(payload.host ?? 'vault-popup', payload.field)} })()`).catch(() => null)
              : null;
            const input = handle?.asElement();
            if (input) {
              await input.uploadFile(path);
              return true;
            }
            if (Date.now() > end) throw new Error(`window: no file input ${payload.field}`);
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        case 'focus-field': {
          const page = await waitForPage(session, url, ms);
          // In front: a page behind others is hidden, and the panel takes no input while it isn't seen (IntersectionObserver v2).
          await page.bringToFront();
          const focus = (id) => {
            const field = document.querySelector('vault-popup')?.shadowRoot?.getElementById(id);
            field?.focus();
            return Boolean(field);
          };
          const end = Date.now() + ms;
          while (!(await page.evaluate(focus, payload.field))) {
            if (Date.now() > end) throw new Error(`window: no field ${payload.field} in ${url}`);
            await new Promise((r) => setTimeout(r, 50));
          }
          return true;
        }
        case 'type': {
          const page = await waitForPage(session, url, ms);
          // In front: a page behind others is hidden, and the panel takes no input while it isn't seen (IntersectionObserver v2).
          await page.bringToFront();
          await page.keyboard.type(payload.text);
          return true;
        }
        case 'press': {
          const page = await waitForPage(session, url, ms);
          // In front: a page behind others is hidden, and the panel takes no input while it isn't seen (IntersectionObserver v2).
          await page.bringToFront();
          for (const key of [].concat(payload.key)) await page.keyboard.press(key);
          return true;
        }
        case 'evaluate': {
          // An expression in the page, or in its frame whose URL contains `frame`.
          const page = await waitForPage(session, url, ms);
          // Firefox's BiDi frame tree can lag a just-loaded iframe, so a frame is waited for; and a
          // page that navigates or closes under the call ("no such frame") is looked for again.
          const end = Date.now() + ms;
          for (let current = page; ; current = await waitForPage(session, url, Math.max(0, end - Date.now()))) {
            let target = payload.frame ? null : current;
            while (!target && !(target = current.frames().find((f) => f.url().includes(payload.frame)))) {
              if (Date.now() > end) throw new Error(`window: no frame whose URL contains ${payload.frame}`);
              await new Promise((r) => setTimeout(r, 50));
            }
            try {
              return await target.evaluate(payload.expression);
            } catch (error) {
              if (!/no such frame|not found|closed|destroyed|detached/i.test(String(error?.message)) || Date.now() > end) throw error;
              await new Promise((r) => setTimeout(r, 50));
            }
          }
        }
        case 'screenshot': {
          const page = await waitForPage(session, url, ms);
          const path = resolve(ARTIFACTS, payload.name);
          if (!path.startsWith(ARTIFACTS)) throw new Error('window: screenshots go under test-artifacts/');
          await mkdir(dirname(path), { recursive: true });
          await page.screenshot({ path, clip: payload.clip, captureBeyondViewport: true });
          return payload.name;
        }
        case 'heap': {
          // The JS heap of the test page's process after a full collection (Chromium, over CDP).
          const page = session.browser.getPage(session.id);
          const cdp = await page.createCDPSession();
          try {
            await cdp.send('HeapProfiler.collectGarbage');
            const { usedSize } = await cdp.send('Runtime.getHeapUsage');
            return usedSize;
          } finally {
            await cdp.detach();
          }
        }
        case 'console-lines':
          return logs.get(session.id) ?? [];
        default:
          throw new Error(`window: unknown action ${action}`);
      }
    },
  };
}
