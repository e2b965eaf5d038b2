// The lock popup's own screens (README, Key store and lock: the popup), drawn from the lock's
// model: no lock, locked, unlocked with a lock, and the forms that set, change or remove it.
// Passphrases go from the form straight to the model; nothing is kept here.
import { html, nothing } from 'lit';
import { AUTO_LOCK_CHOICES, type AutoLockMs } from '../src/contract.ts';
import { MIN_BACKUP_PASSPHRASE, MIN_PASSPHRASE_LENGTH } from '../src/limits.ts';
import type { BackupModel } from './backup-controller.ts';
import { type PopupModel, type Screen, autoLockText } from './lock-controller.ts';
import type { Parts } from './popup-parts.ts';

export const LOCK_TITLES: Record<Screen, string> = {
  loading: 'Vault lock',
  broken: 'Vault lock',
  auto: 'The vault opens by itself',
  'set-passphrase': 'Lock with a passphrase',
  locked: 'The vault is locked',
  unlocked: 'The vault is unlocked',
  'add-passkey': 'Add a passkey',
  'change-passphrase': 'Change the passphrase',
  remove: 'Remove the lock',
};

export function lockScreen(screen: Screen, model: PopupModel, backup: BackupModel | undefined, parts: Parts) {
  const lock = model.state.lock;
  switch (screen) {
    case 'loading':
      return html`<p>Opening the vault…</p>`;
    case 'broken':
      return nothing;
    case 'auto':
      return html`<p>
          Right now the vault opens by itself in this browser: any SLICC window here can use your secrets without
          asking. That is auto-unlock. Anyone who can use this browser profile can use them too.
        </p>
        <p>Lock it, and SLICC asks for your passkey or a passphrase whenever it starts again.</p>
        <div class="actions">
          ${parts.button('Lock with a passkey', () => model.addPasskey(), 'accent')}
          ${parts.button('Lock with a passphrase', () => model.go('set-passphrase'))}
        </div>
        ${backupActions(backup, parts)}`;
    case 'set-passphrase':
      return html`${
        lock
          ? html`<p>Add a passphrase as a second way to unlock. You confirm with your passkey.</p>`
          : html`<p>
              Choose a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters. Nobody can recover it for you: if you forget it, the
              secrets in this vault are lost.
            </p>
            <p class="note">
              ${MIN_PASSPHRASE_LENGTH} is enough here because guesses at the lock are made in this browser, slowed and counted. A
              backup's passphrase needs ${MIN_BACKUP_PASSPHRASE}: anyone who copies the file can guess at it offline, as fast as
              their computers go.
            </p>`
      }
        <form @submit=${(e: SubmitEvent) => parts.submit(e, (f) => model.setPassphrase(f.get('new') ?? '', f.get('again') ?? '', lock ? { passkey: true } : undefined))}>
          ${parts.field('new', 'New passphrase', 'new-password')} ${parts.field('again', 'The same passphrase again', 'new-password')}
          <div class="actions">
            ${parts.submitButton(lock ? 'Add the passphrase' : 'Lock with this passphrase')} ${back(model, parts, lock ? 'unlocked' : 'auto')}
          </div>
        </form>`;
    case 'locked':
      return html`<p>Unlock it to let SLICC use your secrets again.</p>
        ${
          backup?.state.available && backup.state.pending.length
            ? html`<p>SLICC asks you to ${backup.state.pending.includes('backup') ? 'back up' : 'restore'} your secrets: unlock first.</p>`
            : nothing
        }
        ${
          lock?.passkey
            ? html`<div class="actions">${parts.button('Unlock with your passkey', () => model.unlock({ passkey: true }), 'accent')}</div>`
            : nothing
        }
        ${lock?.passkey && lock.passphrase ? html`<p class="or">or</p>` : nothing}
        ${
          lock?.passphrase
            ? html`<form @submit=${(e: SubmitEvent) => parts.submit(e, (f) => model.unlock({ passphrase: f.get('current') ?? '' }))}>
              ${parts.field('current', 'Passphrase', 'current-password')}
              <div class="actions">${parts.submitButton('Unlock', lock.passkey ? 'secondary' : 'accent')}</div>
            </form>`
            : nothing
        }`;
    case 'unlocked':
      return html`<p>
          The lock is ${lock?.passkey && lock.passphrase ? 'a passkey and a passphrase' : lock?.passkey ? 'a passkey' : 'a passphrase'}. The vault is
          open now, and stays open until you lock it,${lock?.autoLockMs ? ` it goes ${autoLockText(lock.autoLockMs)} without use,` : ''} or every
          SLICC window is closed.
        </p>
        <div class="actions">${parts.button('Lock now', () => model.lockNow(), 'accent')}</div>
        ${autoLockChoice(model, parts, lock?.autoLockMs ?? null)}
        <div class="actions">
          ${lock?.passkey ? nothing : parts.button('Add a passkey', () => (lock?.passphrase ? model.go('add-passkey') : model.addPasskey()))}
          ${lock?.passphrase ? parts.button('Change the passphrase', () => model.go('change-passphrase')) : parts.button('Add a passphrase', () => model.go('set-passphrase'))}
          ${parts.button('Remove the lock', () => model.go('remove'), 'negative', 'outline')}
        </div>
        ${backupActions(backup, parts)}`;
    case 'add-passkey':
      return html`<p>Confirm with your passphrase, then your browser asks you to create a passkey.</p>
        <form @submit=${(e: SubmitEvent) => parts.submit(e, (f) => model.addPasskey({ passphrase: f.get('current') ?? '' }))}>
          ${parts.field('current', 'Current passphrase', 'current-password')}
          <div class="actions">${parts.submitButton('Add a passkey')} ${back(model, parts, 'unlocked')}</div>
        </form>`;
    case 'change-passphrase':
      return html`<form @submit=${(e: SubmitEvent) => parts.submit(e, (f) => model.setPassphrase(f.get('new') ?? '', f.get('again') ?? '', { passphrase: f.get('current') ?? '' }))}>
        ${parts.field('current', 'Current passphrase', 'current-password')} ${parts.field('new', 'New passphrase', 'new-password')}
        ${parts.field('again', 'The new passphrase again', 'new-password')}
        <div class="actions">${parts.submitButton('Change the passphrase')} ${back(model, parts, 'unlocked')}</div>
      </form>`;
    case 'remove':
      return html`<p>
          Without a lock the vault opens by itself again in this browser, for anyone who can use it. Confirm with
          ${lock?.passkey && lock.passphrase ? 'your passkey or passphrase' : lock?.passkey ? 'your passkey' : 'your passphrase'}.
        </p>
        ${
          lock?.passkey
            ? html`<div class="actions">${parts.button('Remove with your passkey', () => model.removeLock({ passkey: true }), 'negative')}</div>`
            : nothing
        }
        ${
          lock?.passphrase
            ? html`<form @submit=${(e: SubmitEvent) => parts.submit(e, (f) => model.removeLock({ passphrase: f.get('current') ?? '' }))}>
              ${parts.field('current', 'Current passphrase', 'current-password')}
              <div class="actions">${parts.submitButton('Remove the lock', 'negative')}</div>
            </form>`
            : nothing
        }
        <div class="actions">${back(model, parts, 'unlocked')}</div>`;
  }
}

/** Auto-lock's idle time (README, Key store and lock): never, 15 minutes, 1 hour or 4 hours without use. */
function autoLockChoice(model: PopupModel, parts: Parts, current: AutoLockMs | null) {
  const chosen = (event: Event) => {
    if (!parts.allows(event)) return;
    const value = (event.target as HTMLSelectElement).value;
    void model.setAutoLock(value === 'never' ? null : (Number(value) as AutoLockMs));
  };
  return html`<label for="autolock">Lock by itself</label>
    <select id="autolock" ?disabled=${model.state.busy} @change=${chosen}>
      <option value="never" ?selected=${current === null}>Never</option>
      ${AUTO_LOCK_CHOICES.map((ms) => html`<option value=${ms} ?selected=${current === ms}>After ${autoLockText(ms)} without use</option>`)}
    </select>`;
}

/** "Back up…" and "Restore…", with the vault unlocked (README, Backup and restore). */
function backupActions(backup: BackupModel | undefined, parts: Parts) {
  if (!backup?.state.available) return nothing;
  return html`<h2>Backups</h2>
    <div class="actions">
      ${parts.button('Back up…', () => backup!.open('backup'))} ${parts.button('Restore…', () => backup!.open('restore'))}
    </div>`;
}

function back(model: PopupModel, parts: Parts, screen: Screen) {
  return parts.button('Back', () => model.go(screen), 'secondary', 'outline', true);
}
