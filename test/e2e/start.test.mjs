// `npm start` as a newcomer uses it (README, Embed it in your own page): EMBEDDERS lets a page at a
// third origin embed the vault, and that page is the README's own example, taken from the README's
// text, served as written but for the ports; SIGINT and SIGTERM sent to `npm start` stop everything
// it started.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium.mjs';
import { servePage } from '../../scripts/serve-page.mjs';
import { readmeExample } from './readme.mjs';
import { freePort } from './servers.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cleanups = [];
after(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

/** Whether anything of the process group `pgid` is still alive. */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    if (error.code === 'ESRCH') return false;
    throw error;
  }
}

/** Whether something listens on `host`:`port` (127.0.0.1 by default): a connection is accepted, or refused. */
const answers = (port, host = '127.0.0.1') =>
  new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', (error) => (error.code === 'ECONNREFUSED' ? resolve(false) : reject(error)));
  });

/**
 * Runs `npm start` in its own process group with free ports (and `env`), and resolves once it
 * printed its URLs. `stop(signal)` sends the signal to npm's process alone, as a process manager
 * would, and resolves with npm's exit once every process of the group is gone.
 */
async function npmStart(env = {}) {
  const [vaultPort, demoPort] = await Promise.all([freePort(), freePort()]);
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, VAULT_PORT: String(vaultPort), DEMO_PORT: String(demoPort), ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const stop = async (signal) => {
    if (!groupAlive(child.pid)) return exited;
    process.kill(child.pid, signal);
    const exit = await exited;
    const end = Date.now() + 10_000;
    while (groupAlive(child.pid)) {
      if (Date.now() > end) {
        process.kill(-child.pid, 'SIGKILL');
        assert.fail(`${signal} to npm start left processes of its group running:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return exit;
  };
  cleanups.push(() => stop('SIGKILL'));
  const end = Date.now() + 60_000;
  while (!out.includes('Ctrl-C stops.')) {
    if (child.exitCode !== null || Date.now() > end) assert.fail(`npm start didn't start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { vaultPort, demoPort, vaultOrigin: `http://vault.sliccy.localhost:${vaultPort}`, out: () => out, stop };
}

test("the README's embedding example, served at a third origin named in EMBEDDERS, is welcomed and gets a placeholder and the placeholders event", async () => {
  const { embedders, page } = readmeExample();
  const example = new URL(embedders);
  const appPort = await freePort();
  const appOrigin = `${example.protocol}//${example.hostname}:${appPort}`;
  const started = await npmStart({ EMBEDDERS: embedders.replace(example.origin, appOrigin) });
  assert.match(started.out(), new RegExp(`embedders: .*${appOrigin}`), 'npm start names the added embedder');

  // The page as the README writes it, but for the ports this run uses, served as the README says.
  const folder = mkdtempSync(`${tmpdir()}/my-app-`);
  writeFileSync(`${folder}/index.html`, page(started.vaultOrigin));
  const server = await servePage({ dir: folder, port: appPort });
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));

  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || ensureChromium(), args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());
  const tab = await browser.newPage();
  const problems = [];
  tab.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await tab.goto(`${appOrigin}/`);
  const log = tab.locator('#log');
  await log.getByText('welcome: locked false').waitFor({ timeout: 15_000 });
  await log.getByText('button: ready').waitFor({ timeout: 15_000 });

  const value = `my_${randomUUID()}`;
  await tab.fill('input[type=password]', value);
  await tab.getByRole('button', { name: 'Keep it in the vault' }).click();
  await log.getByText('placeholder: fnox_proxy_').waitFor({ timeout: 15_000 });
  const text = await log.innerText();
  const placeholder = /^placeholder: (fnox_proxy_[0-9a-f]{24}) inert$/m.exec(text)?.[1];
  assert.ok(placeholder, `a placeholder in the log:\n${text}`);
  assert.match(text, new RegExp(`^placeholders event: ${placeholder}$`, 'm'), 'the placeholders event names it, alone: the namespace is the page');
  assert.ok(text.indexOf('placeholders event:') < text.indexOf('placeholder: '), 'the event goes out before the reply');
  assert.equal(text.includes(value), false, 'the value never comes back');
  assert.equal(await tab.inputValue('input[type=password]'), '', 'the field is cleared');
  assert.deepEqual(problems, [], 'no console error or page error on the page or in the vault frame');

  const exit = await started.stop('SIGTERM');
  assert.equal(exit.code ?? exit.signal, 143, 'npm start ends as SIGTERM says');
  assert.equal(await answers(started.vaultPort), false, 'the vault server is gone');
  assert.equal(await answers(started.demoPort), false, 'the demo server is gone');
});

test('npm start listens on 127.0.0.1 only; SIGINT sent to it (what Ctrl-C sends) stops both servers and every process it started', async () => {
  const started = await npmStart();
  assert.equal(await answers(started.vaultPort), true);
  assert.equal(await answers(started.demoPort), true);
  assert.equal(await answers(started.vaultPort, '::1'), false, 'the vault answers on no other address, not even [::1]');
  assert.equal(await answers(started.demoPort, '::1'), false, 'the demo answers on no other address, not even [::1]');
  const exit = await started.stop('SIGINT');
  assert.equal(exit.code ?? exit.signal, 130, 'npm start ends as SIGINT says');
  assert.equal(await answers(started.vaultPort), false, 'the vault server is gone');
  assert.equal(await answers(started.demoPort), false, 'the demo server is gone');
});

test('npm start with its vault port taken says so and names the variable that moves it, with no stack', async () => {
  const [vaultPort, demoPort] = await Promise.all([freePort(), freePort()]);
  const taken = createServer().listen(vaultPort, '127.0.0.1');
  await new Promise((resolve) => taken.once('listening', resolve));
  try {
    const child = spawn('npm', ['start'], { cwd: root, env: { ...process.env, VAULT_PORT: String(vaultPort), DEMO_PORT: String(demoPort) } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 1, out);
    assert.match(out, new RegExp(`port ${vaultPort} is in use.*VAULT_PORT=`));
    assert.doesNotMatch(out, /\n\s+at /, 'no stack');
  } finally {
    taken.close();
  }
});
