// The lock end to end, in real Chromium: the button in a cross-origin iframe, the popup it opens on
// a real click, Chromium's virtual authenticator in that popup, and vault frames in other iframes
// that follow the lock without a reload.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { clickButton, embedButton, popup } from '../helpers/lock.ts';
import { canary, crossed, findCanaries, resetVault, wait, welcomed, type VaultClient } from '../helpers/vault.ts';
import { POPUP_NOT_IN_WEBKIT } from '../helpers/engines.ts';

const STAMP = { pid: 1, ppid: 0, uid: 1000, gid: 1000, tag: 't' };
const lockedWith = (client: VaultClient, locked: boolean, since = 0) =>
  client.until((e) => e.op === 'status' && e.status.locked === locked, since, 5000, `no status with locked ${locked}`);

async function expectLockedOut(client: VaultClient) {
  const put = await client.request('put', { name: 'LATER_TOKEN', value: canary('later') });
  expect(put.error.code).to.equal('EACCES');
  expect(put.error.message).to.match(/^vault is locked/);
  const sealed = await client.request('sealed', { req: { op: 'seal', name: 'SEALED_TOKEN', value: canary('sealed') }, stamp: STAMP });
  expect(sealed.reply.error.code).to.equal('EACCES');
}

/** Every console line of the test page, its frames and the popups, and every port message. */
async function everythingSaid(): Promise<unknown[]> {
  const page = (await executeServerCommand('console-lines')) as string[];
  const popups = (await executeServerCommand('window', { action: 'console-lines' })) as string[];
  return [...crossed, ...page, ...popups];
}

describe(`the lock popup ${POPUP_NOT_IN_WEBKIT}`, () => {
  before(() => executeServerCommand('console-start'));
  beforeEach(resetVault);
  after(async () => {
    const said = await everythingSaid();
    expect(findCanaries(said)).to.deep.equal([]);
    for (const passphrase of ['correct horse battery', 'wrong horse battery', 'keyboard only please']) {
      expect(JSON.stringify(said)).not.to.contain(passphrase);
    }
  });

  it('locks with a passkey; after a reload the frame is locked until the popup, opened by a click on the button, unlocks every frame; lock now locks both (Chromium only)', async () => {
    const a = await welcomed();
    expect((await a.request('put', { name: 'API_TOKEN', value: canary('pk') })).placeholder).to.be.a('string');
    const b = await welcomed();
    const button = await embedButton();
    await button.until('ready');

    await clickButton(button);
    await popup.wait();
    await popup.shows('The vault opens by itself');
    await popup.addAuthenticator();
    await popup.click('Lock with a passkey');
    await popup.shows('Done: from now on the vault opens only with your passkey.');
    // The first lock brings a new data key: the frame drops the old one and takes the new one.
    const withPasskey = await a.until((e) => e.op === 'status' && e.status.lock?.passkey === true && !e.status.locked);
    expect(withPasskey.status).to.include({ locked: false });

    // The first lock's key change may say locked for a moment: only what comes after "Lock now" counts.
    const [beforeLockA, beforeLockB] = [a.events.length, b.events.length];
    await popup.click('Lock now');
    await Promise.all([lockedWith(a, true, beforeLockA), lockedWith(b, true, beforeLockB), button.until('locked')]);
    const lastOfB = b.events.filter((e) => e.op === 'status').at(-1) as { status: { locked: boolean } };
    expect(lastOfB.status.locked).to.equal(true);

    // The reload: a new frame of the same namespace, while no document holds the key.
    a.frame!.remove();
    const reloaded = await welcomed();
    const welcome = (await reloaded.first) as any;
    expect(welcome.status.locked).to.equal(true);
    expect(welcome.status.lock).to.deep.equal({ passphrase: false, passkey: true, autoLockMs: null });
    expect(welcome.status.scrub).to.include({ needed: true, ready: false });
    await expectLockedOut(reloaded);
    const agent = await welcomed({ role: 'agent' });
    expect((await agent.request('redact', { texts: ['x'] })).error).to.deep.equal({ code: 'EACCES', message: 'unlock the vault to continue' });
    expect((await agent.request('redactStream', { stream: 's' })).error.code).to.equal('EACCES');
    // The frame that held the key before the lock keeps its compiled scrubber: it still scrubs.
    expect((await b.request('status')).status.scrub).to.include({ needed: true, ready: true });

    const unlockedSince = b.events.length;
    await popup.click('Unlock with your passkey');
    await Promise.all([lockedWith(reloaded, false), lockedWith(b, false, unlockedSince), button.until('ready')]);
    expect((await reloaded.request('put', { name: 'LATER_TOKEN', value: canary('later') })).placeholder).to.be.a('string');

    const [since, sinceB] = [reloaded.events.length, b.events.length];
    await popup.click('Lock now');
    await Promise.all([lockedWith(reloaded, true, since), lockedWith(b, true, sinceB)]);
    await expectLockedOut(b);
    // Locking again doesn't take the scrubber the unlock compiled: ready stays, redact answers.
    expect((await reloaded.request('status')).status.scrub).to.include({ needed: true, ready: true });
    const redacted = await agent.request('redact', { texts: ['no value here'] });
    expect(redacted.texts).to.deep.equal(['no value here']);
  });

  it('locks with a passphrase entered twice; a wrong one is refused and slows down; the popup opened to unlock closes itself; removing the lock returns to auto-unlock', async function () {
    // Five PBKDF2 derivations of 600,000 passes each, on a machine other tests share.
    this.timeout(90_000);
    const a = await welcomed();
    await a.request('put', { name: 'API_TOKEN', value: canary('pp') });
    const button = await embedButton();
    await button.until('ready');

    await clickButton(button);
    await popup.click('Lock with a passphrase');
    await popup.fill('new', 'correct horse battery');
    await popup.fill('again', 'correct horse batteries');
    await popup.click('Lock with this passphrase');
    await popup.shows("The two passphrases aren't the same; nothing changed.");
    await popup.fill('new', 'correct horse battery');
    await popup.fill('again', 'correct horse battery');
    await popup.click('Lock with this passphrase');
    await popup.shows('Done: from now on the vault opens only with this passphrase.');
    await popup.click('Lock now');
    await Promise.all([lockedWith(a, true), button.until('locked')]);
    await closePopup();

    const saidBefore = button.said.length;
    a.frame!.remove();
    const reloaded = await welcomed();
    expect(((await reloaded.first) as any).status.locked).to.equal(true);
    await expectLockedOut(reloaded);

    // With `a`, the namespace's only frame, gone the button said `connecting`; a click then opens
    // the popup without `intent=unlock`, and such a popup stays open after the unlock. So the
    // person (and the test) clicks once the new frame has told the button `locked`.
    await button.until('locked', 5000, saidBefore);
    await clickButton(button);
    expect(await popup.wait()).to.contain('intent=unlock');
    await popup.fill('current', 'wrong horse battery');
    await popup.click('Unlock');
    await popup.shows('Wrong passphrase.');
    // At once, in one step: typing and clicking, three commands, outlasted the 1 s wait on a loaded
    // machine (Firefox, the whole suite running), and the attempt was then tried. Even one step
    // outlasted it once: that attempt then counts as wrong and doubles the wait (2 s, then 4 s),
    // so the next one made at once is refused. That even the right passphrase waits is
    // test/lock.test.ts's, on a clock it controls.
    let seconds = 0;
    for (let tries = 1; !seconds; tries++) {
      expect(tries, 'attempts made at once before one is refused').to.be.at.most(3);
      const shown = (await popup.attempt('current', 'x')).trim();
      const refused = /^Too many failed attempts: try again in (\d+) seconds?\.$/.exec(shown);
      if (refused) seconds = Number(refused[1]);
      else expect(shown).to.equal('Wrong passphrase.');
    }
    expect(seconds).to.be.within(1, 4);
    expect(await popup.isOpen()).to.equal(true);
    await wait(seconds * 1000);
    await popup.fill('current', 'correct horse battery');
    await popup.click('Unlock');
    await Promise.all([lockedWith(reloaded, false), button.until('ready')]);
    expect(await popup.closed()).to.equal(true);

    await clickButton(button);
    await popup.click('Remove the lock');
    await popup.fill('current', 'correct horse battery');
    await popup.click('Remove the lock');
    await popup.shows('The lock is removed.');
    await reloaded.until((e) => e.op === 'status' && e.status.lock === null);
    await closePopup();
    reloaded.frame!.remove();
    const again = await welcomed();
    expect(((await again.first) as any).status).to.include({ locked: false, lock: null });
  });

  it('refuses an authenticator without PRF with its message, and the vault stays as it was (Chromium only)', async () => {
    const a = await welcomed();
    const button = await embedButton();
    await button.until('ready');
    await clickButton(button);
    await popup.shows('The vault opens by itself');
    await popup.addAuthenticator(false);
    await popup.click('Lock with a passkey');
    const text = await popup.shows("doesn't support the PRF extension");
    expect(text).to.contain('Nothing changed');
    expect(text).to.contain('The vault opens by itself');
    const status = (await a.request('status')).status;
    expect(status).to.include({ locked: false, lock: null });
    expect(a.events.filter((e) => e.op === 'status')).to.deep.equal([]);
  });

  it('is usable with the keyboard alone: lock with a passphrase, lock now, unlock', async () => {
    const a = await welcomed();
    const button = await embedButton();
    await button.until('ready');
    await clickButton(button);
    await popup.shows('The vault opens by itself');
    // The heading has the focus on each new screen; Tab goes through the screen's controls.
    await popup.press(['Tab', 'Tab']);
    expect(await popup.focused()).to.equal('button:Lock with a passphrase');
    await popup.press('Enter');
    await popup.shows('Choose a passphrase');
    expect(await popup.focused()).to.equal('input:new');
    await popup.type('keyboard only please');
    await popup.press('Tab');
    await popup.type('keyboard only please');
    await popup.press('Enter');
    await popup.shows('Done: from now on the vault opens only with this passphrase.');
    await popup.press('Tab');
    expect(await popup.focused()).to.equal('button:Lock now');
    await popup.press('Enter');
    await lockedWith(a, true);
    await popup.shows('The vault is locked');
    expect(await popup.focused()).to.equal('input:current');
    const since = a.events.length;
    await popup.type('keyboard only please');
    await popup.press('Enter');
    await lockedWith(a, false, since);
  });
});

function closePopup() {
  return executeServerCommand('window', { action: 'close', url: '/popup.html' });
}
