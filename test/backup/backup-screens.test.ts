// Every backup and restore screen of the popup, light and dark, from models the test gives it:
// axe finds nothing, intents reach the model, passphrases leave the form at once, and each screen
// is drawn beside the lock's (screenshots, docs/screenshots/lock/popup-backup-*).
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../../components/vault-popup.ts';
import type { BackupModel, BackupState } from '../../components/backup-controller.ts';
import type { PopupModel, PopupState } from '../../components/lock-controller.ts';
import type { VaultPopup } from '../../components/VaultPopup.ts';
import { wait } from '../helpers/vault.ts';

const P = (n: number) => `fnox_proxy_${n.toString(16).padStart(24, '0')}`;
const PREVIEW: BackupState['preview'] = {
  source: 'import:slicc-vault',
  fileName: 'slicc-vault-seven.sliccy.ai-2026-11-30.age',
  otherNamespace: 'https://old.sliccy.ai',
  items: [
    { name: 'GITHUB_TOKEN', kind: 'secret', status: 'new', placeholder: P(1) },
    { name: 'NPM_TOKEN', kind: 'secret', status: 'new', placeholder: P(900), placeholderWas: P(2) },
    { name: 'anthropic', kind: 'model', status: 'replaces', placeholder: P(3) },
    { name: 'SLACK_TOKEN', kind: 'secret', status: 'unchanged', placeholder: P(4) },
    { name: 'OLD_TOKEN', kind: 'secret', status: 'new', placeholder: P(5), removed: true },
    { name: 'CI_TOKEN', kind: 'secret', status: 'restores', placeholder: P(6) },
    {
      name: 'bad-name',
      kind: 'secret',
      status: 'invalid',
      reason: "a secret's name must be an environment variable name: a letter or _, then letters, digits or _",
    },
  ],
  invalidLines: [],
  added: 3,
  replaced: 1,
  broughtBack: 1,
  skipped: 2,
};
const CASES: { name: string; backup: Partial<BackupState> }[] = [
  { name: 'unlocked', backup: {} },
  { name: 'backup', backup: { task: 'backup' } },
  {
    name: 'backup-too-short',
    backup: { task: 'backup', outcome: { kind: 'error', text: 'A backup passphrase needs at least 12 characters. Nothing was saved.' } },
  },
  { name: 'backup-working', backup: { task: 'backup', busy: true, stoppable: true, working: 'Encrypting the backup… this takes a few seconds.' } },
  {
    name: 'backed-up',
    backup: {
      outcome: {
        kind: 'success',
        text: 'Backed up 12 records to slicc-vault-seven.sliccy.ai-2026-11-30.age. Keep the file and its passphrase apart: anyone with both can read every value.',
      },
    },
  },
  { name: 'restore', backup: { task: 'restore' } },
  {
    name: 'restore-not-age',
    backup: { task: 'restore', outcome: { kind: 'error', text: 'That file is neither an age backup nor a .env file. Nothing was restored.' } },
  },
  { name: 'restore-passphrase', backup: { task: 'restore-passphrase', fileName: 'slicc-vault-seven.sliccy.ai-2026-11-30.age' } },
  {
    name: 'restore-wrong-passphrase',
    backup: {
      task: 'restore-passphrase',
      fileName: 'backup.age',
      outcome: { kind: 'error', text: 'Wrong passphrase for that backup (or its header was altered). Nothing was restored.' },
    },
  },
  { name: 'restore-preview', backup: { task: 'restore-preview', preview: PREVIEW } },
  {
    name: 'restore-preview-dotenv',
    backup: {
      task: 'restore-preview',
      preview: {
        source: 'import:dotenv',
        fileName: '.env',
        items: [{ name: 'API_KEY', kind: 'secret', status: 'new', placeholder: P(7) }],
        invalidLines: ['line 3: not NAME=value'],
        added: 1,
        replaced: 0,
        broughtBack: 0,
        skipped: 1,
      },
    },
  },
  {
    name: 'restore-decrypting',
    backup: { task: 'restore-passphrase', fileName: 'backup.age', busy: true, stoppable: true, working: 'Decrypting the backup… this takes a few seconds.' },
  },
  {
    name: 'restored',
    backup: { outcome: { kind: 'success', text: 'Restored from backup.age: 3 new, 1 replaced, 1 brought back, 1 unchanged, 1 invalid, not restored.' } },
  },
];

function models(backup: Partial<BackupState>, theme: 'light' | 'dark', screen: PopupState['screen'] = 'unlocked') {
  const asked: unknown[][] = [];
  const record =
    (name: string) =>
    async (...args: unknown[]) =>
      void asked.push([name, ...args]);
  const lock: PopupModel = {
    state: {
      screen,
      lock: { passphrase: true, passkey: false, autoLockMs: null },
      busy: false,
      outcome: null,
      namespace: 'https://seven.sliccy.ai',
      theme,
      scale: 'medium',
    },
    go: () => {},
    unlock: record('unlock'),
    lockNow: record('lockNow'),
    setPassphrase: record('setPassphrase'),
    addPasskey: record('addPasskey'),
    removeLock: record('removeLock'),
    setAutoLock: record('setAutoLock'),
    touch: () => undefined,
  };
  const model: BackupModel = {
    state: {
      task: null,
      busy: false,
      stoppable: false,
      working: null,
      outcome: null,
      pending: [],
      available: true,
      site: 'https://seven.sliccy.ai',
      preview: null,
      fileName: null,
      ...backup,
    },
    open: (task) => void asked.push(['open', task]),
    cancel: record('cancel'),
    backUp: record('backUp'),
    choose: record('choose'),
    decrypt: record('decrypt'),
    confirm: record('confirm'),
  };
  return { lock, model, asked };
}

async function render(backup: Partial<BackupState>, theme: 'light' | 'dark' = 'light', screen: PopupState['screen'] = 'unlocked') {
  fixtureCleanup();
  const m = models(backup, theme, screen);
  const box = await fixture<HTMLElement>(html`<div style="inline-size: 420px"><vault-popup .model=${m.lock} .backup=${m.model}></vault-popup></div>`);
  const popup = box.querySelector<VaultPopup>('vault-popup')!;
  await popup.updateComplete;
  return { popup, root: popup.shadowRoot!, box, asked: m.asked };
}

describe('the backup and restore screens', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`pass axe on every screen, ${theme}, and are drawn (screenshots)`, async function () {
      this.timeout(120_000); // twelve screens, each checked by axe and drawn
      for (const c of CASES) {
        const { popup, box } = await render(c.backup, theme);
        await expect(popup, c.name).to.be.accessible();
        await wait(30);
        const r = box.getBoundingClientRect();
        await executeServerCommand('window', {
          action: 'screenshot',
          name: `lock/popup-backup-${c.name}-${theme}.png`,
          clip: { x: r.x, y: r.y + scrollY, width: r.width, height: r.height },
        });
      }
    });
  }

  it('offers Back up… and Restore… with the vault open, with or without a lock, and asks to unlock first when locked', async () => {
    const labels = (root: ShadowRoot) => [...root.querySelectorAll('button')].map((b) => b.textContent!.trim());
    const unlocked = await render({});
    expect(labels(unlocked.root).slice(-2)).to.deep.equal(['Back up…', 'Restore…']);
    unlocked.root.querySelectorAll('button')[4]!.click();
    expect(unlocked.asked).to.deep.equal([['open', 'backup']]);
    expect(labels((await render({}, 'light', 'auto')).root).slice(-2)).to.deep.equal(['Back up…', 'Restore…']);
    const locked = await render({ pending: ['backup'] }, 'light', 'locked');
    expect(labels(locked.root)).not.to.include('Back up…');
    expect(locked.root.querySelector('main')!.textContent).to.contain('SLICC asks you to back up your secrets: unlock first.');
  });

  it('hands the backup passphrase, twice, to the model and clears the fields at once', async () => {
    const { root, asked } = await render({ task: 'backup' });
    const fields = [...root.querySelectorAll('input')];
    expect(fields.map((f) => [f.id, f.type, f.autocomplete])).to.deep.equal([
      ['backup-new', 'password', 'new-password'],
      ['backup-again', 'password', 'new-password'],
    ]);
    fields[0]!.value = 'first backup passphrase';
    fields[1]!.value = 'second backup passphrase';
    root.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    expect(asked).to.deep.equal([['backUp', 'first backup passphrase', 'second backup passphrase']]);
    expect(fields.map((f) => f.value)).to.deep.equal(['', '']);
  });

  it('names the site a backup or a restore is of on each screen before anything is written', async () => {
    for (const task of ['backup', 'restore', 'restore-passphrase'] as const) {
      const { root } = await render({ task });
      expect(root.querySelector('main')!.textContent!.replace(/\s+/g, ' '), task).to.contain('the SLICC site https://seven.sliccy.ai');
    }
  });

  it('hands a chosen file to the model and focuses the new screen', async () => {
    const { root, asked } = await render({ task: 'restore' });
    const input = root.querySelector<HTMLInputElement>('#restore-file')!;
    expect(root.activeElement).to.equal(input);
    const data = new DataTransfer();
    data.items.add(new File(['A_KEY=abcdefghijk'], 'app.env'));
    input.files = data.files;
    input.dispatchEvent(new Event('change'));
    expect(asked.map(([intent, file]) => [intent, (file as File).name])).to.deep.equal([['choose', 'app.env']]);
  });

  it('keeps Cancel and Lock now pressable while a file decrypts, and every other button waits', async () => {
    const { root, asked } = await render({
      task: 'restore-passphrase',
      fileName: 'backup.age',
      busy: true,
      stoppable: true,
      working: 'Decrypting the backup… this takes a few seconds.',
    });
    const buttons = [...root.querySelectorAll('button')].map((b) => [b.textContent!.trim(), b.disabled]);
    expect(buttons).to.deep.equal([
      ['Decrypt and check', true],
      ['Cancel', false],
      ['Lock now', false],
    ]);
    for (const b of root.querySelectorAll('button')) if (!b.disabled) b.click();
    expect(asked).to.deep.equal([['cancel'], ['lockNow']]);
  });

  it('previews names, kinds and placeholders to change, and never a value field', async () => {
    const { root, asked } = await render({ task: 'restore-preview', preview: PREVIEW });
    const rows = [...root.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim()));
    expect(rows).to.deep.equal([
      ['GITHUB_TOKEN', 'secret', 'new'],
      ['NPM_TOKEN', 'secret', 'new'],
      ['anthropic', 'model', 'replaces the value here'],
      ['SLACK_TOKEN', 'secret', 'unchanged'],
      ['OLD_TOKEN', 'secret', 'new (removed, as in the backup)'],
      ['CI_TOKEN', 'secret', 'brings back (removed here)'],
      ['bad-name', 'secret', "invalid: a secret's name must be an environment variable name: a letter or _, then letters, digits or _"],
    ]);
    const text = root.querySelector('main')!.textContent!.replace(/\s+/g, ' ');
    expect(text).to.contain(`NPM_TOKEN: ${P(2)} becomes ${P(900)}`);
    expect(text).to.contain('This backup is of another site, https://old.sliccy.ai.');
    // Any page may open the popup for any allowed site: the site it restores into is always named.
    expect(text).to.contain(' into https://seven.sliccy.ai: ');
    [...root.querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Restore 5 records')!.click();
    expect(asked).to.deep.equal([['confirm']]);
  });
});
