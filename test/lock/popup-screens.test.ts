// Every screen of the lock popup, light and dark, rendered from a model the test gives it: axe
// finds nothing, intents reach the model, passphrases are cleared from the form at once, and each
// screen is drawn (screenshots).
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../../components/vault-popup.ts';
import type { PopupModel, PopupState, Screen } from '../../components/lock-controller.ts';
import type { VaultPopup } from '../../components/VaultPopup.ts';
import type { LockState } from '../../src/contract.ts';
import { wait } from '../helpers/vault.ts';

interface Case {
  name: string;
  screen: Screen;
  lock: LockState;
  outcome?: PopupState['outcome'];
}

const BOTH = { passphrase: true, passkey: true, autoLockMs: null };
const CASES: Case[] = [
  { name: 'loading', screen: 'loading', lock: null },
  { name: 'broken', screen: 'broken', lock: null, outcome: { kind: 'error', text: "The vault couldn't start here. Close this window and try again." } },
  { name: 'auto', screen: 'auto', lock: null },
  { name: 'set-passphrase', screen: 'set-passphrase', lock: null },
  { name: 'locked', screen: 'locked', lock: BOTH },
  {
    name: 'locked-wrong-passphrase',
    screen: 'locked',
    lock: { passphrase: true, passkey: false, autoLockMs: null },
    outcome: { kind: 'error', text: 'Wrong passphrase.' },
  },
  {
    name: 'unlocked',
    screen: 'unlocked',
    lock: { passphrase: false, passkey: true, autoLockMs: null },
    outcome: { kind: 'success', text: 'Done: from now on the vault opens only with your passkey.' },
  },
  { name: 'add-passkey', screen: 'add-passkey', lock: { passphrase: true, passkey: false, autoLockMs: null } },
  { name: 'add-passphrase', screen: 'set-passphrase', lock: { passphrase: false, passkey: true, autoLockMs: null } },
  { name: 'change-passphrase', screen: 'change-passphrase', lock: BOTH },
  {
    name: 'key-lost',
    screen: 'broken',
    lock: null,
    outcome: {
      kind: 'error',
      text: "The vault's key is gone: secrets are stored here, but no key is left to open them. Nothing new is written until it is restored.",
    },
  },
  { name: 'remove', screen: 'remove', lock: BOTH },
  {
    name: 'no-prf',
    screen: 'auto',
    lock: null,
    outcome: { kind: 'error', text: "That passkey can't lock the vault: its authenticator doesn't support the PRF extension. Nothing changed." },
  },
];

/** A model that renders what it's given and records what the element asks for. */
function model(state: Partial<PopupState>): PopupModel & { asked: unknown[][] } {
  const asked: unknown[][] = [];
  const full: PopupState = {
    screen: 'auto',
    lock: null,
    busy: false,
    outcome: null,
    namespace: 'https://seven.sliccy.ai',
    theme: 'light',
    scale: 'medium',
    ...state,
  };
  const record =
    (name: string) =>
    async (...args: unknown[]) =>
      void asked.push([name, ...args]);
  return {
    state: full,
    asked,
    go: (screen) => void asked.push(['go', screen]),
    unlock: record('unlock'),
    lockNow: record('lockNow'),
    setPassphrase: record('setPassphrase'),
    addPasskey: record('addPasskey'),
    removeLock: record('removeLock'),
    setAutoLock: record('setAutoLock'),
    touch: () => undefined,
  };
}

async function render(state: Partial<PopupState>) {
  fixtureCleanup();
  const m = model(state);
  const el = await fixture<VaultPopup>(html`<div style="inline-size: 420px"><vault-popup .model=${m}></vault-popup></div>`);
  const popup = el.querySelector('vault-popup')!;
  await popup.updateComplete;
  return { popup, root: popup.shadowRoot!, m, box: el };
}

describe('the lock popup, screen by screen', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`passes axe on every screen, ${theme}, and is drawn (screenshots)`, async () => {
      for (const c of CASES) {
        const { popup, box } = await render({ screen: c.screen, lock: c.lock, outcome: c.outcome ?? null, theme });
        await expect(popup).to.be.accessible();
        await wait(30);
        const r = box.getBoundingClientRect();
        await executeServerCommand('window', {
          action: 'screenshot',
          name: `lock/popup-${c.name}-${theme}.png`,
          clip: { x: r.x, y: r.y + scrollY, width: r.width, height: r.height },
        });
      }
    });
  }

  it('hands both passphrases to the model and clears the fields at once', async () => {
    const { root, m } = await render({ screen: 'set-passphrase' });
    const fields = [...root.querySelectorAll('input')];
    expect(fields.map((f) => [f.id, f.type, f.autocomplete])).to.deep.equal([
      ['new', 'password', 'new-password'],
      ['again', 'password', 'new-password'],
    ]);
    fields[0]!.value = 'first passphrase';
    fields[1]!.value = 'second passphrase';
    root.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    expect(m.asked).to.deep.equal([['setPassphrase', 'first passphrase', 'second passphrase', undefined]]);
    expect(fields.map((f) => f.value)).to.deep.equal(['', '']);
  });

  it('asks for the passkey to add a passphrase when the lock is a passkey', async () => {
    const { root, m } = await render({ screen: 'set-passphrase', lock: { passphrase: false, passkey: true, autoLockMs: null } });
    root.querySelector<HTMLInputElement>('#new')!.value = 'a passphrase';
    root.querySelector<HTMLInputElement>('#again')!.value = 'a passphrase';
    root.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    expect(m.asked).to.deep.equal([['setPassphrase', 'a passphrase', 'a passphrase', { passkey: true }]]);
  });

  it('offers, unlocked, lock now, the other kind, changing the passphrase and removing the lock', async () => {
    const labels = async (lock: LockState) => {
      const { root } = await render({ screen: 'unlocked', lock });
      return [...root.querySelectorAll('button')].map((b) => b.textContent!.trim());
    };
    expect(await labels({ passphrase: true, passkey: false, autoLockMs: null })).to.deep.equal([
      'Lock now',
      'Add a passkey',
      'Change the passphrase',
      'Remove the lock',
    ]);
    expect(await labels({ passphrase: false, passkey: true, autoLockMs: null })).to.deep.equal(['Lock now', 'Add a passphrase', 'Remove the lock']);
    expect(await labels(BOTH)).to.deep.equal(['Lock now', 'Change the passphrase', 'Remove the lock']);
  });

  it('offers auto-lock, unlocked: never, 15 minutes, 1 hour or 4 hours without use, and hands the choice to the model', async () => {
    const { root, m } = await render({ screen: 'unlocked', lock: { passphrase: true, passkey: false, autoLockMs: 3_600_000 } });
    const select = root.querySelector<HTMLSelectElement>('select#autolock')!;
    expect(root.querySelector('label[for=autolock]')!.textContent!.trim()).to.equal('Lock by itself');
    expect([...select.options].map((o) => o.textContent!.trim())).to.deep.equal([
      'Never',
      'After 15 minutes without use',
      'After 1 hour without use',
      'After 4 hours without use',
    ]);
    expect(select.value).to.equal('3600000');
    expect(root.querySelector('p')!.textContent).to.contain('it goes 1 hour without use');
    select.value = '900000';
    select.dispatchEvent(new Event('change'));
    select.value = 'never';
    select.dispatchEvent(new Event('change'));
    expect(m.asked).to.deep.equal([
      ['setAutoLock', 900_000],
      ['setAutoLock', null],
    ]);
  });

  it('says outcomes in a live region: successes as status, errors as alerts', async () => {
    const ok = await render({ screen: 'unlocked', lock: BOTH, outcome: { kind: 'success', text: 'Unlocked.' } });
    expect(ok.root.querySelector('[role=status]')!.textContent!.trim()).to.equal('Unlocked.');
    const bad = await render({ screen: 'locked', lock: BOTH, outcome: { kind: 'error', text: 'Wrong passphrase.' } });
    expect(bad.root.querySelector('[role=alert]')!.textContent!.trim()).to.equal('Wrong passphrase.');
  });
});
