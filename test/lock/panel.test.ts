// The panel end to end (README, Key store and lock: the panel), in all three engines: a cross-origin
// isolated embedder (as bios is) whose button hello says `panel: true`, the panel it then shows in
// an iframe on a real click, used with the real mouse and keyboard; the embedder's own hidden vault
// frame, on a page port, follows the lock.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { type IsolatedButton, PANEL, embedIsolated, panel, popup } from '../helpers/lock.ts';
import { origins } from '../helpers/origins.ts';
import { readUntil } from '../helpers/poll.ts';
import { canary, crossed, findCanaries, resetVault, wait } from '../helpers/vault.ts';

const PASS = 'correct horse battery';
const BACKUP_PASS = 'a long backup passphrase';
const SITE = `For the SLICC site ${origins.embedder}`;

/** The panel shows `text`, on a screen that names the site and has its close control (Close or Done). */
async function shows(text: string, ms?: number) {
  const now = await panel.shows(text, ms);
  expect(now, 'the site on this screen').to.contain(SITE);
  expect(now.trim(), 'the close control of this screen').to.match(/\n(Close|Done)$/);
  return now;
}

/** The isolated embedder asking for the panel, with its own vault frame, its button ready, and the panel opened by a real click. */
async function openPanel() {
  const button = await embedIsolated({ panel: true, frame: true });
  expect(await button.isolated()).to.equal(true);
  await clickWhen(button, 'ready');
  return button;
}

/** A real click on the button once it shows `availability`, and the panel shown for it. */
async function clickWhen(button: IsolatedButton, availability: string) {
  await button.until((l) => l.state === availability, availability);
  const since = (await panel.story()).length;
  await button.click();
  await panel.told('shown', since);
}

async function everythingSaid(): Promise<unknown[]> {
  const page = (await executeServerCommand('console-lines')) as string[];
  const windows = (await executeServerCommand('window', { action: 'console-lines' })) as string[];
  return [...crossed, ...page, ...windows];
}

/** '' once the embedder's frame is unlocked, or the panel's text once it says the attempt came too soon. */
async function answerOf(ms = 20_000): Promise<string> {
  // One poll, not two racing: a WebDriver session runs one command at a time, in one frame.
  const unlockedOrText = async () => ((await panel.request('status')).status.locked === false ? '' : await panel.text().catch(() => '…'));
  return readUntil(
    unlockedOrText,
    (now) => now === '' || now.includes('Too many failed attempts'),
    (now) => `neither unlocked nor refused as too soon: ${JSON.stringify(now)}`,
    ms,
    50,
  );
}

describe('the panel', function () {
  // PBKDF2 at 600,000 passes, and scrypt, on a machine other tests share.
  this.timeout(120_000);
  before(() => executeServerCommand('console-start'));
  beforeEach(resetVault);
  after(async () => {
    const said = await everythingSaid();
    expect(findCanaries(said)).to.deep.equal([]);
    for (const secret of [PASS, BACKUP_PASS]) expect(JSON.stringify(said)).not.to.contain(secret);
  });

  it('opens from the button of a cross-origin isolated embedder that asks for it, at the vault origin, for its namespace, and no popup opens; a click while shown asks again; Close removes it (not in Chromium: headless, its IntersectionObserver v2 may never see the panel of a second window, which then takes no input)', async () => {
    const button = await openPanel();
    const [shown] = await panel.story();
    const url = new URL(shown!.slice('shown '.length));
    expect(url.origin + url.pathname).to.equal(`${origins.vault}${PANEL}`);
    expect(url.searchParams.get('namespace')).to.equal(origins.embedder);
    expect(url.searchParams.has('intent')).to.equal(false);
    await shows('The vault opens by itself');
    expect(await popup.count()).to.equal(0);

    await button.click();
    await panel.told('asked again');
    expect(await panel.shown()).to.equal(true);
    await panel.click('Close');
    await panel.told('closed');
    expect(await panel.shown()).to.equal(false);
    expect(await popup.count()).to.equal(0);
  });

  it('locks with a passphrase set in it; Done, once locked, closes it; after a reload the frame starts locked; the panel opened to unlock unlocks every frame and closes itself (not in Chromium: headless, its IntersectionObserver v2 may never see the panel of a second window, which then takes no input)', async () => {
    const button = await openPanel();
    await panel.request('put', { name: 'API_TOKEN', value: canary('panel') });
    await shows('The vault opens by itself');
    await panel.click('Lock with a passphrase');
    await shows('Choose a passphrase');
    await panel.fill('new', PASS);
    await panel.fill('again', 'correct horse batteries');
    await panel.click('Lock with this passphrase');
    await shows("The two passphrases aren't the same; nothing changed.");
    await panel.fill('new', PASS);
    await panel.fill('again', PASS);
    await panel.click('Lock with this passphrase');
    await shows('Done: from now on the vault opens only with this passphrase.');
    expect((await panel.text()).trim()).to.match(/\nDone$/);
    await panel.click('Lock now');
    await panel.locked(true);
    await shows('The vault is locked');
    const since = (await panel.story()).length;
    await panel.click('Done');
    await panel.told('closed', since);

    const welcome = await panel.reloadFrame();
    expect(welcome.status).to.include({ locked: true });
    expect((await panel.request('put', { name: 'LATER', value: canary('later') })).error.code).to.equal('EACCES');

    await clickWhen(button, 'locked');
    const story = await panel.story();
    expect(new URL(story.at(-1)!.slice('shown '.length)).searchParams.get('intent')).to.equal('unlock');
    await shows('The vault is locked');
    await panel.fill('current', 'wrong horse battery');
    await panel.click('Unlock');
    await shows('Wrong passphrase.');
    const before = (await panel.story()).length;
    // A wrong attempt makes the next wait a second: one made sooner is refused, saying how long.
    for (let tries = 1; ; tries++) {
      expect(tries, 'attempts').to.be.at.most(3);
      await panel.fill('current', PASS);
      await panel.click('Unlock');
      const now = await answerOf();
      if (!now) break;
      await wait(Number(/try again in (\d+) second/.exec(now)![1]) * 1000);
    }
    await panel.told('closed', before);
    expect(await panel.shown()).to.equal(false);
    expect((await panel.request('put', { name: 'LATER', value: canary('later') })).placeholder).to.be.a('string');
  });

  it('takes no synthetic click, submit or change: a script in the panel can press nothing and submit nothing', async () => {
    await openPanel();
    await shows('The vault opens by itself');
    const pressed = (await panel.evaluate(`(() => {
      const root = document.querySelector('vault-panel').shadowRoot;
      const button = (text) => [...root.querySelectorAll('button')].find((b) => b.textContent.trim() === text);
      button('Lock with a passphrase').click();
      button('Close').dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
      return root.querySelector('h1').textContent;
    })()`)) as string;
    expect(pressed).to.equal('The vault opens by itself');
    expect(await panel.shown()).to.equal(true);

    await panel.click('Lock with a passphrase');
    await shows('Choose a passphrase');
    const submitted = (await panel.evaluate(`(() => {
      const root = document.querySelector('vault-panel').shadowRoot;
      root.getElementById('new').value = ${JSON.stringify(PASS)};
      root.getElementById('again').value = ${JSON.stringify(PASS)};
      root.querySelector('form').requestSubmit();
      root.getElementById('new').value = ${JSON.stringify(PASS)};
      root.getElementById('again').value = ${JSON.stringify(PASS)};
      root.querySelector('button[type=submit]').click();
      return { busy: root.querySelector('main').getAttribute('aria-busy'), heading: root.querySelector('h1').textContent, left: root.getElementById('new').value };
    })()`)) as { busy: string; heading: string; left: string };
    expect(submitted).to.deep.equal({ busy: 'false', heading: 'Lock with a passphrase', left: '' });
    // A real click after them: by the time it shows, they were handled, and nothing was locked.
    await panel.click('Back');
    await shows('The vault opens by itself');
    expect((await panel.request('status')).status).to.include({ locked: false, lock: null });
  });

  it('backs up to a file the age command opens, and restores a file age -p made, naming the site and offering Close or Done on each screen (not in Chromium: headless, its IntersectionObserver v2 may never see the panel of a second window, which then takes no input)', async () => {
    await openPanel();
    const value = canary('backup');
    await panel.request('put', { name: 'GH_TOKEN', value });
    await shows('Backups');
    // The file the panel hands the browser to download, seen where it is made.
    await panel.evaluate(`(() => {
      const [create, click] = [URL.createObjectURL, HTMLAnchorElement.prototype.click];
      let text;
      URL.createObjectURL = (blob) => ((text = blob.text()), create(blob));
      HTMLAnchorElement.prototype.click = function () {
        const name = this.download;
        window.saved = text.then((text) => ({ name, text }));
        return click.call(this);
      };
      return true;
    })()`);
    await panel.click('Back up…');
    await shows('Back up your secrets');
    await panel.fill('backup-new', BACKUP_PASS);
    await panel.fill('backup-again', BACKUP_PASS);
    await panel.click('Back up and download');
    await shows('Backed up 1 record to', 90_000);
    expect((await panel.text()).trim()).to.match(/\nDone$/);
    const file = (await panel.evaluate('window.saved')) as { name: string; text: string };
    expect(file.name).to.match(/^slicc-vault-.+\.age$/);
    expect(file.text).not.to.contain(value);
    const plain = JSON.parse((await executeServerCommand('age', { action: 'decrypt', text: file.text, passphrase: BACKUP_PASS })) as string);
    expect(plain).to.include({ format: 'slicc-vault-backup', namespace: origins.embedder });
    expect(plain.records.map((r: any) => [r.name, r.value])).to.deep.equal([['GH_TOKEN', value]]);

    // The same backup with another value, encrypted by `age -p -a`.
    const changed = { ...plain, records: [{ ...plain.records[0], value: canary('restored') }] };
    const made = (await executeServerCommand('age', { action: 'encrypt', text: JSON.stringify(changed), passphrase: BACKUP_PASS })) as string;
    await panel.click('Restore…');
    await shows('Restore secrets');
    await panel.upload('restore-file', 'made.age', made);
    await shows('is an age file', 30_000);
    await panel.fill('backup-passphrase', BACKUP_PASS);
    await panel.click('Decrypt and check');
    await shows('What restoring does', 90_000);
    await panel.click('Restore 1 record');
    await shows('Restored from made.age: 0 new, 1 replaced');
    expect((await panel.request('list')).list.secrets.map((s: any) => s.name)).to.deep.equal(['GH_TOKEN']);
    await panel.click('Done');
    await panel.told('closed');
  });

  it('takes no passphrase while something covers it, and says so, where IntersectionObserver v2 tells (Chromium only) (not in Chromium: headless, its IntersectionObserver v2 may never see the panel of a second window, which then takes no input)', async () => {
    await openPanel();
    await panel.click('Lock with a passphrase');
    await shows('Choose a passphrase');
    const cover = (on: boolean) =>
      executeServerCommand('window', {
        action: 'evaluate',
        url: '/test/fixtures/isolated-embedder.html',
        expression: on
          ? `(() => { const f = document.querySelector('iframe[src*="${PANEL}"]').getBoundingClientRect(); const d = document.createElement('div'); d.id = 'cover'; d.style.cssText = 'position:fixed;left:' + f.x + 'px;top:' + f.y + 'px;width:' + f.width + 'px;height:' + f.height + 'px;background:#000;opacity:0.3;pointer-events:none'; document.body.append(d); return true; })()`
          : `(document.getElementById('cover').remove(), true)`,
      });
    await cover(true);
    await shows('Something covers this panel');
    const disabled = (await panel.evaluate(
      "[...document.querySelector('vault-panel').shadowRoot.querySelectorAll('input, button[type=submit]')].map((e) => e.disabled)",
    )) as boolean[];
    expect(disabled).to.deep.equal([true, true, true]);
    await cover(false);
    await panel.fill('new', PASS);
    expect(await panel.text()).not.to.contain('Something covers this panel');
  });

  it('locks with a passkey created from the click in the frame, and unlocks with it (Chromium only) (not in Chromium: headless, its IntersectionObserver v2 may never see the panel of a second window, which then takes no input)', async () => {
    await openPanel();
    await shows('The vault opens by itself');
    await executeServerCommand('webauthn', { action: 'add', target: '/test/fixtures/isolated-embedder.html' });
    await panel.click('Lock with a passkey');
    await shows('Done: from now on the vault opens only with your passkey.');
    await panel.click('Lock now');
    await panel.locked(true);
    await panel.click('Unlock with your passkey');
    await panel.locked(false);
  });
});
