// The built site (`npm run build`) as production serves it: the six documents, no bare imports,
// and the frame, the button and the panel working under their real CSP in a cross-origin isolated embedder.
// Also `npm pack`: the types and nothing else.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'esbuild';
import TOML from '@ltd/j-toml';
import { buildSite, lazyToml } from '../../scripts/build.mjs';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { EMBEDDER_HEADERS } from '../../scripts/vault-server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'slicc-vault-dist-'));
let vault;
let embedder;
let browser;

/** A bare embedder page, cross-origin isolated as bios is. */
function serveEmbedder() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html', ...EMBEDDER_HEADERS });
    res.end('<!doctype html><title>embedder</title>');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

before(async () => {
  await buildSite(`${dir}/`);
  embedder = await serveEmbedder();
  const embedderOrigin = `http://seven.sliccy.localhost:${embedder.address().port}`;
  // Deploying means writing your embedders into embedders.json (the built one allows https://*.sliccy.ai).
  writeFileSync(join(dir, 'embedders.json'), JSON.stringify([embedderOrigin]));
  vault = await serveDist({ dir, embedders: [embedderOrigin] });
  browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || ensureChromium(), args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  vault?.close();
  embedder?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('npm run build writes the six documents and bundles without bare imports', () => {
  const files = readdirSync(dir);
  for (const name of ['index.html', 'button.html', 'popup.html', 'panel.html', 'config.json', 'embedders.json']) assert.ok(files.includes(name), name);
  assert.deepEqual(JSON.parse(readFileSync(join(root, 'static/embedders.json'), 'utf8')), ['https://*.sliccy.ai']);
  for (const html of files.filter((f) => f.endsWith('.html'))) {
    const text = readFileSync(join(dir, html), 'utf8');
    assert.doesNotMatch(text, /\.ts"/, `${html} still loads TypeScript`);
    for (const [, src] of text.matchAll(/src="\.\/([^"]+)"/g)) assert.ok(files.includes(src), `${html} loads ${src}, which exists`);
  }
  for (const js of files.filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(dir, js), 'utf8');
    const bare = [...text.matchAll(/\b(?:from|import)\s*\(?\s*["']([@A-Za-z][\w@/.-]*)["']/g)].map((m) => m[1]);
    assert.deepEqual(bare, [], `${js} has no bare imports`);
  }
});

test("the frame's bundle is named by its content and served to be kept; the documents and settings are revalidated", async () => {
  const base = `http://127.0.0.1:${vault.address().port}`;
  const index = await fetch(`${base}/index.html`);
  assert.equal(index.headers.get('cache-control'), 'no-cache');
  const src = (await index.text()).match(/src="\.\/([^"]+)"/)[1];
  assert.match(src, /^vault-frame-[A-Z0-9]{8}\.js$/);
  assert.equal((await fetch(`${base}/${src}`)).headers.get('cache-control'), 'public, max-age=31536000, immutable');
  for (const file of ['embedders.json', 'config.json', 'worker.js', 'button.html', 'vault-button.js']) {
    assert.equal((await fetch(`${base}/${file}`)).headers.get('cache-control'), 'no-cache', file);
  }
});

test('the built frame and button answer an embedder under their production headers', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  await page.goto(`http://seven.sliccy.localhost:${embedder.address().port}/`);
  const vaultOrigin = `http://vault.sliccy.localhost:${vault.address().port}`;
  const result = await page.evaluate(async (origin) => {
    const load = (src) =>
      new Promise((resolve) => {
        const frame = Object.assign(document.createElement('iframe'), { src });
        frame.addEventListener('load', () => resolve(frame), { once: true });
        document.body.append(frame);
      });
    const frame = await load(`${origin}/`);
    const { port1, port2 } = new MessageChannel();
    const messages = [];
    /** Resolves once `done()` holds, or throws after 5 s. */
    const until = (done, what) =>
      new Promise((resolve, reject) => {
        const end = Date.now() + 5000;
        const check = () => (done() ? resolve() : Date.now() > end ? reject(new Error(`no ${what} within 5 s`)) : setTimeout(check, 20));
        check();
      });
    port1.onmessage = ({ data }) => messages.push(data);
    frame.contentWindow.postMessage({ type: 'slicc-vault', v: 1, op: 'hello', role: 'page' }, origin, [port2]);
    await until(() => messages.length > 0, 'welcome');
    port1.postMessage({ v: 1, id: 1, op: 'put', name: 'BUILT_TOKEN', value: 'built-site-value-0001' });
    await until(() => messages.some((m) => m.id === 1), 'put reply');
    const button = await load(`${origin}/button.html`);
    // It says `connecting` first, then what the frames of the namespace tell it.
    const availability = new Promise((resolve) => {
      addEventListener('message', (e) => e.source === button.contentWindow && e.data.availability !== 'connecting' && resolve(e.data.availability));
      setTimeout(() => resolve('none within 5 s'), 5000);
    });
    button.contentWindow.postMessage({ type: 'slicc-vault-button', v: 1 }, origin);
    return { welcome: messages[0].op, put: messages.find((m) => m.id === 1), availability: await availability, isolated: crossOriginIsolated };
  }, vaultOrigin);
  assert.equal(result.isolated, true);
  assert.equal(result.welcome, 'welcome');
  assert.match(result.put.placeholder, /^fnox_proxy_[0-9a-f]{24}$/);
  assert.equal(result.availability, 'ready');
  assert.deepEqual(errors, [], 'no console error and no page error: nothing was blocked by the CSP');
  await page.close();
});

test('the built popup opens under its production headers with no console error, its icon included', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  const icon = page.waitForResponse((r) => r.url().endsWith('/favicon.svg'));
  await page.goto(`http://vault.sliccy.localhost:${vault.address().port}/popup.html`);
  await page.locator('vault-popup').getByText('The vault opens by itself').first().waitFor();
  assert.equal((await icon).status(), 200);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the built panel opens in a frame of an allowed, cross-origin isolated embedder under its production headers, naming the site', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  const embedderOrigin = `http://seven.sliccy.localhost:${embedder.address().port}`;
  await page.goto(`${embedderOrigin}/`);
  const src = `http://vault.sliccy.localhost:${vault.address().port}/panel.html?namespace=${encodeURIComponent(embedderOrigin)}`;
  await page.evaluate((src) => {
    const frame = Object.assign(document.createElement('iframe'), { src, allow: 'publickey-credentials-create; publickey-credentials-get' });
    document.body.append(frame);
  }, src);
  const panel = page.frameLocator('iframe').locator('vault-panel');
  await panel.getByText('The vault opens by itself').first().waitFor();
  await panel.getByText(`For the SLICC site ${embedderOrigin}`).first().waitFor();
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the frame bundle's j-toml, started at its first parse, reads and refuses TOML as the package does", async () => {
  const out = join(dir, 'lazy-toml.mjs');
  await build({
    stdin: { contents: "import TOML from '@ltd/j-toml'; export default TOML;", resolveDir: root },
    bundle: true,
    format: 'esm',
    outfile: out,
    plugins: [lazyToml],
    logLevel: 'warning',
  });
  assert.doesNotMatch(readFileSync(out, 'utf8'), /^export \{[^}]*_export as default/m, 'the package is not bundled as it is');
  const { default: lazy } = await import(out);
  const options = { joiner: '\n', bigint: false };
  const texts = ['', 'a = 1\n[b]\nc = "d"\ne = [1, 2]\n[[f]]\ng = { h = true }\n', 'x = 1979-05-27T07:32:00Z\n', 'a = 1\na = 2\n', '[x\n'];
  for (const text of texts) {
    const read = (parser) => {
      try {
        return { table: JSON.parse(JSON.stringify(parser.parse(text, options))) };
      } catch (error) {
        return { error: error.message };
      }
    };
    assert.deepEqual(read(lazy), read(TOML), JSON.stringify(text));
  }
});

test('npm pack ships the contract types and the client with its types, and nothing else but the license', () => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' }))[0];
  // npm adds LICENSE, README.md and package.json to every package.
  assert.deepEqual(packed.files.map((f) => f.path).sort(), [
    'LICENSE',
    'README.md',
    'dist/client.js',
    'dist/types/client/client.d.ts',
    'dist/types/client/index.d.ts',
    'dist/types/contract.d.ts',
    'package.json',
  ]);
  const types = readFileSync(join(root, 'dist/types/contract.d.ts'), 'utf8');
  assert.match(types, /export type Op =/);
  assert.doesNotMatch(types, /^import /m, 'the types stand alone');
  const client = readFileSync(join(root, 'dist/client.js'), 'utf8');
  assert.match(client, /export \{[^}]*\bconnect\b/);
  assert.doesNotMatch(client, /^import /m, 'the client has no dependencies');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.deepEqual(pkg.exports['./client'], { types: './dist/types/client/index.d.ts', default: './dist/client.js' });
});
