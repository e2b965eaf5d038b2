// The README's embedding example, as written (but for the ports), in Chromium, Firefox and WebKit:
// served cross-origin isolated by scripts/serve-page.mjs as the README says, used as a person would
// with the real mouse and keyboard (puppeteer for Chromium and Firefox, WebKitGTK's WebDriver for
// WebKit): a value kept, a passphrase lock set in the button's panel, a reload that starts locked,
// the panel unlocking and closing itself. And a page of an origin the vault doesn't allow says why.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import puppeteer from 'puppeteer-core';
import { remote } from 'webdriverio';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { ensureFirefox } from '../../scripts/firefox.mjs';
import { servePage } from '../../scripts/serve-page.mjs';
import { startServer, vaultServerConfig } from '../../scripts/vault-server.mjs';
import { startWebKit } from '../../scripts/webkit.mjs';
import { age } from '../plugins/age.mjs';
import { readmeExample } from './readme.mjs';
import { freePort } from './servers.mjs';

const PASS = 'correct horse battery staple';
const BACKUP_PASS = 'a long backup passphrase';
const ENGINES = (process.env.ENGINES ?? 'chromium firefox webkit').split(/[\s,]+/).filter(Boolean);

/** Finds, in the panel's shadow root, the button whose text is `text` or the field `#id`. */
const FIND = `(what) => {
  const root = document.querySelector('vault-panel')?.shadowRoot;
  // Chromium drops input to a cross-origin frame that appeared or moved in the last 500 ms
  // (against click-jacking): nothing is pressed before the panel has been up that long.
  if (!root || performance.now() < 800 || root.querySelector('main')?.getAttribute('aria-busy') === 'true') return null;
  if (what.startsWith('#')) return root.querySelector(what);
  return [...root.querySelectorAll('button')].find((b) => b.textContent.trim() === what && !b.disabled) ?? null;
}`;

/** Polls `read` until it gives something truthy, for at most `ms`. */
async function until(read, what, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => null);
    if (value) return value;
    if (Date.now() > end) assert.fail(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Chromium and Firefox through puppeteer: the page, its log, the lock button and the panel. */
async function puppeteerEngine(name) {
  const browser =
    name === 'chromium'
      ? await puppeteer.launch({ executablePath: ensureChromium(), headless: true, args: CHROMIUM_ARGS })
      : await puppeteer.launch({ browser: 'firefox', executablePath: ensureFirefox(), headless: true });
  const tab = await browser.newPage();
  const downloads = mkdtempSync(`${tmpdir()}/downloads-`);
  if (name === 'chromium')
    await (await browser.target().createCDPSession()).send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  const frameOf = async (title) => (await tab.$(`iframe[title="${title}"]`))?.contentFrame();
  const inPanel = async (what) => {
    const frame = await frameOf('Vault');
    const handle = await frame?.evaluateHandle(`(${FIND})(${JSON.stringify(what)})`);
    return handle?.asElement() ?? null;
  };
  return {
    // Not waiting for `load`: a frame the vault's frame-ancestors refuses can hold it back in Firefox.
    open: (url) => tab.goto(url, { waitUntil: 'domcontentloaded' }),
    reload: () => tab.reload({ waitUntil: 'domcontentloaded' }),
    log: () => tab.$eval('#log', (e) => e.textContent),
    isolated: () => tab.evaluate('crossOriginIsolated'),
    keep: async (value) => {
      await tab.type('#value', value);
      await tab.click('form > button');
    },
    field: () => tab.$eval('#value', (e) => e.value),
    clickLock: async () => (await until(async () => (await frameOf('Vault lock'))?.$('pierce/button'), 'the lock button')).click(),
    panelShown: async () => (await tab.$('iframe[title="Vault"]')) !== null,
    panelText: async () => (await frameOf('Vault'))?.evaluate(`document.querySelector('vault-panel')?.shadowRoot?.textContent ?? ''`),
    click: async (text) => (await until(() => inPanel(text), `the panel's ${text}`)).click(),
    fill: async (id, text) => (await until(() => inPanel(`#${id}`), `the panel's #${id}`)).type(text),
    upload: async (id, path) => (await until(() => inPanel(`#${id}`), `the panel's #${id}`)).uploadFile(path),
    downloads,
    close: () => browser.close(),
  };
}

/** WebKit through WebKitGTK's WebDriver: the same, frame by frame. */
async function webkitEngine() {
  const { port, capabilities, stop } = await startWebKit();
  const browser = await remote({ hostname: '127.0.0.1', port, capabilities, logLevel: 'error' });
  /** Runs `act` inside the frame titled `title` (null when there is none), then back at the top. */
  const within = async (title, act) => {
    const frame = await browser.$(`iframe[title="${title}"]`);
    if (!(await frame.isExisting())) return null;
    await browser.switchFrame(frame);
    try {
      return await act();
    } finally {
      await browser.switchFrame(null);
    }
  };
  const inPanel = (what, act) =>
    within('Vault', async () => {
      const found = await browser.execute(`return (${FIND})(arguments[0])`, what);
      if (!found) return null;
      await act(await browser.$(found));
      return true;
    });
  return {
    open: (url) => browser.url(url),
    reload: () => browser.refresh(),
    log: () => browser.execute(`return document.querySelector('#log').textContent`),
    isolated: () => browser.execute('return crossOriginIsolated'),
    keep: async (value) => {
      await (await browser.$('#value')).setValue(value);
      await (await browser.$('form > button')).click();
    },
    field: () => browser.execute(`return document.querySelector('#value').value`),
    clickLock: () =>
      until(
        () =>
          within('Vault lock', async () => {
            const button = await browser.execute(`return document.querySelector('vault-button')?.shadowRoot?.querySelector('button') ?? null`);
            if (!button) return null;
            await (await browser.$(button)).click();
            return true;
          }),
        'the lock button',
      ),
    panelShown: async () => (await browser.$('iframe[title="Vault"]')).isExisting(),
    panelText: () => within('Vault', () => browser.execute(`return document.querySelector('vault-panel')?.shadowRoot?.textContent ?? ''`)),
    click: (text) => until(() => inPanel(text, (e) => e.click()), `the panel's ${text}`),
    // WebKitGTK's driver won't send keys to a field inside a shadow root ("not focusable"), nor
    // click it ("intercepted": its hit test finds the shadow's host): the pointer and keys instead.
    fill: (id, text) =>
      until(
        () =>
          inPanel(`#${id}`, async (e) => {
            await browser.action('pointer').move({ origin: e }).down().up().perform();
            // One key per command: given a run of keys, the driver drops some.
            for (const key of text) await browser.keys([key]);
          }),
        `the panel's #${id}`,
      ),
    close: async () => {
      await browser.deleteSession();
      stop();
    },
  };
}

const { embedders, page } = readmeExample();
const example = new URL(embedders);
let servers = [];
let appOrigin;
let strangerOrigin;

before(async () => {
  const [vaultPort, appPort] = await Promise.all([freePort(), freePort()]);
  const vaultOrigin = `http://vault.sliccy.localhost:${vaultPort}`;
  appOrigin = `${example.protocol}//${example.hostname}:${appPort}`;
  strangerOrigin = `http://stranger.sliccy.localhost:${appPort}`;
  const folder = mkdtempSync(`${tmpdir()}/my-app-`);
  writeFileSync(`${folder}/index.html`, page(vaultOrigin));
  servers = [await startServer(vaultServerConfig({ port: vaultPort, embedders: [appOrigin] })), await servePage({ dir: folder, port: appPort })];
});
after(async () => {
  await servers[0]?.stop();
  await new Promise((resolve) => (servers[1] ? servers[1].close(resolve) : resolve()));
});

const ENGINE = { chromium: () => puppeteerEngine('chromium'), firefox: () => puppeteerEngine('firefox'), webkit: webkitEngine };

for (const name of ENGINES) {
  describe(`the README's example in ${name}`, { timeout: 240_000 }, () => {
    let engine;
    before(async () => {
      engine = await ENGINE[name]();
    });
    after(() => engine?.close());

    test('keeps a value, locks in the panel, starts locked after a reload and unlocks in the panel, which closes itself', async () => {
      await engine.open(`${appOrigin}/`);
      assert.equal(await engine.isolated(), true, 'the page is cross-origin isolated, as bios is');
      await until(async () => /welcome: locked false/.test(await engine.log()) && /button: ready/.test(await engine.log()), 'welcome and ready');

      const value = `my_${randomUUID()}`;
      await engine.keep(value);
      const text = await until(async () => ((await engine.log()).includes('placeholder: ') ? engine.log() : null), 'the placeholder');
      const placeholder = /^placeholder: (fnox_proxy_[0-9a-f]{24}) inert$/m.exec(text)?.[1];
      assert.ok(placeholder, `a placeholder in the log:\n${text}`);
      assert.match(text, new RegExp(`^placeholders event: ${placeholder}$`, 'm'));
      assert.ok(text.indexOf('placeholders event:') < text.indexOf('placeholder: '), 'the event goes out before the reply');
      assert.equal(text.includes(value), false, 'the value never comes back');
      assert.equal(await engine.field(), '', 'the field is cleared');

      await engine.clickLock();
      await until(() => engine.panelShown(), 'the panel');
      await engine.click('Lock with a passphrase');
      await engine.fill('new', PASS);
      await engine.fill('again', PASS);
      await engine.click('Lock with this passphrase');
      await until(async () => (await engine.panelText())?.includes('from now on the vault opens only with this passphrase'), 'the lock set', 60_000);
      await engine.click('Lock now');
      await until(async () => /status event: locked true/.test(await engine.log()), 'the page told the vault locked');
      await engine.click('Done');
      await until(async () => !(await engine.panelShown()), 'the panel gone');

      await engine.reload();
      await until(async () => /welcome: locked true/.test(await engine.log()) && /button: locked/.test(await engine.log()), 'a locked start');
      await engine.keep(`my_${randomUUID()}`);
      await until(async () => /^error: EACCES /m.test(await engine.log()), 'put refused while locked');

      await engine.clickLock();
      await until(() => engine.panelShown(), 'the panel to unlock');
      await engine.fill('current', PASS);
      await engine.click('Unlock');
      await until(async () => /status event: locked false/.test(await engine.log()), 'the page told the vault unlocked', 60_000);
      await until(async () => !(await engine.panelShown()), 'the panel closed itself');
      await until(async () => (await engine.log()).match(/^button: .*$/gm)?.at(-1) === 'button: ready', 'the button ready again');
    });

    // A real download from the panel, a frame of another origin, seconds after its click (scrypt):
    // Chromium lets it through. The other engines' downloads are reached through test/lock/panel.test.ts.
    test('backs up in the panel to a real download the age command opens, and restores a file age made (Chromium)', { skip: name !== 'chromium' }, async () => {
      await engine.open(`${appOrigin}/`);
      await until(async () => /button: (ready|locked)/.test(await engine.log()), 'the button');
      if (/button: locked/.test(await engine.log())) {
        await engine.clickLock();
        await engine.fill('current', PASS);
        await engine.click('Unlock');
        await until(async () => !(await engine.panelShown()), 'the panel closed itself');
      }
      await engine.clickLock();
      await engine.click('Back up…');
      await engine.fill('backup-new', BACKUP_PASS);
      await engine.fill('backup-again', BACKUP_PASS);
      await engine.click('Back up and download');
      const file = await until(() => Promise.resolve(readdirSync(engine.downloads).find((f) => f.endsWith('.age'))), 'the download', 90_000);
      assert.match(file, /^slicc-vault-myapp\.sliccy\.localhost-\d+-\d{4}-\d{2}-\d{2}\.age$/, 'named by host, port and day');
      const out = `${engine.downloads}/plain.json`;
      await age(['-d', '-o', out, `${engine.downloads}/${file}`], BACKUP_PASS);
      const plain = JSON.parse(readFileSync(out, 'utf8'));
      assert.equal(plain.namespace, appOrigin);
      assert.deepEqual(
        plain.records.map((r) => r.name),
        ['MY_TOKEN'],
      );

      const restored = { ...plain, records: plain.records.map((r) => ({ ...r, value: `my_${randomUUID()}` })) };
      writeFileSync(`${engine.downloads}/made.json`, JSON.stringify(restored));
      await age(['-p', '-a', '-o', `${engine.downloads}/made.age`, `${engine.downloads}/made.json`], BACKUP_PASS);
      assert.ok(existsSync(`${engine.downloads}/made.age`));
      await engine.click('Restore…');
      await engine.upload('restore-file', `${engine.downloads}/made.age`);
      await engine.fill('backup-passphrase', BACKUP_PASS);
      await engine.click('Decrypt and check');
      await engine.click('Restore 1 record');
      await until(async () => (await engine.panelText())?.includes('Restored from made.age: 0 new, 1 replaced'), 'the restore', 60_000);
      await engine.click('Done');
      await until(async () => !(await engine.panelShown()), 'the panel gone');
    });

    test("a page of an origin the vault doesn't allow says so, naming embedders.json", { timeout: 60_000 }, async () => {
      await engine.open(`${strangerOrigin}/`);
      const text = await until(async () => ((await engine.log()).includes('not connected:') ? engine.log() : null), 'the refusal', 30_000);
      assert.match(text, /embedders\.json/);
      assert.match(text, new RegExp(`EMBEDDERS="${strangerOrigin.replace(/[.]/g, '\\.')}"`));
    });
  });
}
