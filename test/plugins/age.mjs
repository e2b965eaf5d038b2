// A test-runner plugin for backups (README, Backup and restore): Debian's `age` command, driven
// through a pseudo-terminal (age-tty.py), and the browser's real downloads of a page.
// Tests call executeServerCommand('age', { action: 'decrypt' | 'encrypt', text, passphrase }) and
// executeServerCommand('downloads', { action: 'allow' | 'next', url }).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWebDriver } from './webdriver.mjs';

const TTY = fileURLToPath(new URL('./age-tty.py', import.meta.url));

/** Debian's `age` with `args`, `passphrase` typed at its prompt (it reads one only from a terminal). */
export function age(args, passphrase) {
  return new Promise((resolve, reject) => {
    execFile('python3', [TTY, ...args], { env: { ...process.env, AGE_PASSPHRASE: passphrase }, timeout: 120_000 }, (error, _out, err) =>
      error ? reject(new Error(`age ${args[0]} failed: ${err.trim().split('\n').at(-2) ?? error.message}`)) : resolve(),
    );
  });
}

/** Per page: the CDP session that allows downloads, and the directory they go to. */
const allowed = new Map();

async function pageOf(session, url) {
  const page = session.browser.getPage(session.id);
  if (!url) return page;
  return (await page.browser().pages()).filter((p) => p.url().includes(url)).at(-1) ?? null;
}

export function agePlugin() {
  return {
    name: 'age',
    async executeCommand({ command, payload, session }) {
      if (command === 'age') {
        const dir = await mkdtemp(join(tmpdir(), 'slicc-age-'));
        try {
          const [input, output] = [join(dir, 'in'), join(dir, 'out')];
          await writeFile(input, payload.text);
          if (payload.action === 'decrypt') await age(['-d', '-o', output, input], payload.passphrase);
          else if (payload.action === 'encrypt') await age(['-p', '-a', '-o', output, input], payload.passphrase);
          else throw new Error(`age: unknown action ${payload.action}`);
          return await readFile(output, 'utf8');
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }
      if (command === 'downloads') {
        if (isWebDriver(session)) throw new Error("downloads: WebKit's WebDriver can't allow or read downloads");
        const page = await pageOf(session, payload.url);
        if (!page) throw new Error(`downloads: no page whose URL contains ${payload.url}`);
        if (payload.action === 'allow') {
          const downloadPath = await mkdtemp(join(tmpdir(), 'slicc-downloads-'));
          const cdp = await page.createCDPSession();
          await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath, eventsEnabled: true });
          const done = [];
          cdp.on('Browser.downloadWillBegin', (e) => done.push({ guid: e.guid, name: e.suggestedFilename, state: 'started' }));
          cdp.on('Browser.downloadProgress', (e) => {
            const d = done.find((x) => x.guid === e.guid);
            if (d) d.state = e.state;
          });
          allowed.set(page, { cdp, downloadPath, done, taken: 0 });
          return true;
        }
        if (payload.action === 'next') {
          // The next finished download: its suggested name and its text.
          const state = allowed.get(page);
          if (!state) throw new Error('downloads: call allow first');
          const end = Date.now() + (payload.ms ?? 60_000);
          for (;;) {
            const d = state.done[state.taken];
            if (d?.state === 'completed') {
              state.taken++;
              const files = await readdir(state.downloadPath);
              const file = files.includes(d.name) ? d.name : files.find((f) => !f.endsWith('.crdownload'));
              return { name: d.name, text: await readFile(join(state.downloadPath, file), 'utf8') };
            }
            if (Date.now() > end) throw new Error(`downloads: none finished (${JSON.stringify(state.done)})`);
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        throw new Error(`downloads: unknown action ${payload.action}`);
      }
      return undefined;
    },
  };
}
