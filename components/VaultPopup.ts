import { LitElement, type PropertyValues, css, html, nothing } from 'lit';
import { BackupController, type BackupModel } from './backup-controller.ts';
import { BACKUP_TITLES, type Parts, backupScreen, backupStyles } from './backup-screens.ts';
import { AUTO_LOCK_CHOICES, type AutoLockMs } from '../src/contract.ts';
import { LockController, type PopupModel, type PopupState, type Screen, autoLockText } from './lock-controller.ts';
import { spectrumClass, spectrumSheets } from './spectrum.ts';

const TITLES: Record<Screen, string> = {
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

/**
 * The lock popup (popup.html). It renders the model's screen and forwards what the person asks
 * for; passphrases go from the form straight to the model and the form is cleared.
 */
export class VaultPopup extends LitElement {
  static override styles = [
    ...spectrumSheets,
    backupStyles,
    css`
      :host {
        display: block;
        block-size: 100%;
      }
      .spectrum {
        box-sizing: border-box;
        min-block-size: 100%;
        padding: var(--spectrum-spacing-500);
        background: var(--spectrum-background-layer-1-color);
        color: var(--spectrum-neutral-content-color-default);
        font-family: var(--spectrum-sans-font-family-stack);
        font-size: var(--spectrum-font-size-100);
        line-height: 1.5;
      }
      h1 {
        margin: 0 0 var(--spectrum-spacing-300);
        color: var(--spectrum-heading-color);
        font-size: var(--spectrum-font-size-500);
        outline: none;
      }
      p {
        margin: 0 0 var(--spectrum-spacing-300);
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: var(--spectrum-spacing-200);
        margin-block: var(--spectrum-spacing-300);
      }
      form {
        margin-block: var(--spectrum-spacing-300);
      }
      label {
        display: block;
        margin-block-end: var(--spectrum-spacing-75);
        color: var(--spectrum-neutral-subdued-content-color-default);
        font-size: var(--spectrum-font-size-75);
      }
      input,
      select {
        box-sizing: border-box;
        inline-size: 100%;
        margin-block-end: var(--spectrum-spacing-300);
        padding: var(--spectrum-spacing-100);
        border: var(--spectrum-border-width-100) solid var(--spectrum-gray-600);
        border-radius: var(--spectrum-corner-radius-100);
        background: var(--spectrum-gray-50);
        color: var(--spectrum-neutral-content-color-default);
        font: inherit;
      }
      input:focus-visible,
      select:focus-visible {
        outline: var(--spectrum-focus-indicator-thickness, 2px) solid var(--spectrum-focus-indicator-color);
        outline-offset: 1px;
      }
      .outcome {
        margin-block: var(--spectrum-spacing-300);
        padding: var(--spectrum-spacing-200);
        border-inline-start: var(--spectrum-border-width-400) solid;
        background: var(--spectrum-gray-100);
      }
      .outcome.success {
        border-color: var(--spectrum-positive-visual-color);
      }
      .outcome.error {
        border-color: var(--spectrum-negative-visual-color);
      }
      .or {
        color: var(--spectrum-neutral-subdued-content-color-default);
      }
    `,
  ];

  static override properties = { model: { attribute: false }, backup: { attribute: false } };
  /** The lock controller; tests may give one of their own before the element connects. */
  declare model: PopupModel;
  /** Backups and restores (README, Backup and restore); tests may give one of their own too. */
  declare backup: BackupModel;

  override connectedCallback() {
    if (!this.backup) {
      const backup = new BackupController(this);
      this.backup = backup;
      if (!this.model) {
        const lock = new LockController(this);
        // Opened to unlock for a backup or restore the page asked for: stay open after unlocking.
        lock.keepOpen = () => backup.active;
        this.model = lock;
      }
    }
    this.model ??= new LockController(this);
    super.connectedCallback();
  }

  /** The backup screen shown instead of the lock's, when one is open and the vault is unlocked. */
  private get task() {
    const { screen } = this.model.state;
    return this.backup?.state.available && (screen === 'auto' || screen === 'unlocked') ? this.backup.state.task : null;
  }

  override render() {
    const { screen, theme, scale } = this.model.state;
    const task = this.task;
    const backup = this.backup?.state;
    const outcome = this.model.state.outcome ?? backup?.outcome ?? null;
    const busy = this.model.state.busy || !!backup?.busy;
    // Any press or key in the popup is the person using the vault: auto-lock starts again.
    return html`<main
      class=${spectrumClass(theme, scale)}
      aria-busy=${busy ? 'true' : 'false'}
      @pointerdown=${() => this.model.touch()}
      @keydown=${() => this.model.touch()}
    >
      <h1 tabindex="-1">${task ? BACKUP_TITLES[task] : TITLES[screen]}</h1>
      ${task ? backupScreen(this.backup, this.parts) : this.screen(screen)}
      <div role="status" aria-live="polite">
        ${backup?.working ? html`<p class="outcome">${backup.working}</p>` : nothing}
        ${outcome?.kind === 'success' ? html`<p class="outcome success">${outcome.text}</p>` : nothing}
      </div>
      <div role="alert">${outcome?.kind === 'error' ? html`<p class="outcome error">${outcome.text}</p>` : nothing}</div>
    </main>`;
  }

  protected override updated(changed: PropertyValues) {
    super.updated(changed);
    const screen = this.task ?? this.model.state.screen;
    const outcome = this.model.state.outcome ?? this.backup?.state.outcome ?? null;
    const field = this.renderRoot.querySelector<HTMLElement>('input');
    if (screen !== this.shown) {
      // A new screen: focus its first field, or its heading, so keyboard and screen readers follow.
      this.shown = screen;
      (field ?? this.renderRoot.querySelector<HTMLElement>('h1'))?.focus();
    } else if (outcome !== this.said && outcome?.kind === 'error') {
      // A refusal on the same screen: the cleared field gets the focus back (the busy button lost it).
      field?.focus();
    }
    this.said = outcome;
  }

  private shown?: string;
  private said: PopupState['outcome'] = null;

  private screen(screen: Screen) {
    const lock = this.model.state.lock;
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
            ${this.button('Lock with a passkey', () => this.model.addPasskey(), 'accent')}
            ${this.button('Lock with a passphrase', () => this.model.go('set-passphrase'))}
          </div>
          ${this.backupActions()}`;
      case 'set-passphrase':
        return html`${
          lock
            ? html`<p>Add a passphrase as a second way to unlock. You confirm with your passkey.</p>`
            : html`<p>
                Choose a passphrase of at least 8 characters. Nobody can recover it for you: if you forget it, the
                secrets in this vault are lost.
              </p>`
        }
          <form @submit=${(e: SubmitEvent) => this.submit(e, (f) => this.model.setPassphrase(f.get('new') ?? '', f.get('again') ?? '', lock ? { passkey: true } : undefined))}>
            ${this.field('new', 'New passphrase', 'new-password')} ${this.field('again', 'The same passphrase again', 'new-password')}
            <div class="actions">
              ${this.submitButton(lock ? 'Add the passphrase' : 'Lock with this passphrase')} ${this.back(lock ? 'unlocked' : 'auto')}
            </div>
          </form>`;
      case 'locked':
        return html`<p>Unlock it to let SLICC use your secrets again.</p>
          ${
            this.backup?.state.available && this.backup.state.pending.length
              ? html`<p>SLICC asks you to ${this.backup.state.pending.includes('backup') ? 'back up' : 'restore'} your secrets: unlock first.</p>`
              : nothing
          }
          ${
            lock?.passkey
              ? html`<div class="actions">${this.button('Unlock with your passkey', () => this.model.unlock({ passkey: true }), 'accent')}</div>`
              : nothing
          }
          ${lock?.passkey && lock.passphrase ? html`<p class="or">or</p>` : nothing}
          ${
            lock?.passphrase
              ? html`<form @submit=${(e: SubmitEvent) => this.submit(e, (f) => this.model.unlock({ passphrase: f.get('current') ?? '' }))}>
                ${this.field('current', 'Passphrase', 'current-password')}
                <div class="actions">${this.submitButton('Unlock', lock.passkey ? 'secondary' : 'accent')}</div>
              </form>`
              : nothing
          }`;
      case 'unlocked':
        return html`<p>
            Locked with ${lock?.passkey && lock.passphrase ? 'a passkey and a passphrase' : lock?.passkey ? 'a passkey' : 'a passphrase'}. It is open
            now, and stays open until you lock it, ${lock?.autoLockMs ? `it goes ${autoLockText(lock.autoLockMs)} without use,` : ''} or every SLICC
            window is closed.
          </p>
          <div class="actions">${this.button('Lock now', () => this.model.lockNow(), 'accent')}</div>
          ${this.autoLockChoice(lock?.autoLockMs ?? null)}
          <div class="actions">
            ${lock?.passkey ? nothing : this.button('Add a passkey', () => (lock?.passphrase ? this.model.go('add-passkey') : this.model.addPasskey()))}
            ${lock?.passphrase ? this.button('Change the passphrase', () => this.model.go('change-passphrase')) : this.button('Add a passphrase', () => this.model.go('set-passphrase'))}
            ${this.button('Remove the lock', () => this.model.go('remove'), 'negative', 'outline')}
          </div>
          ${this.backupActions()}`;
      case 'add-passkey':
        return html`<p>Confirm with your passphrase, then your browser asks you to create a passkey.</p>
          <form @submit=${(e: SubmitEvent) => this.submit(e, (f) => this.model.addPasskey({ passphrase: f.get('current') ?? '' }))}>
            ${this.field('current', 'Current passphrase', 'current-password')}
            <div class="actions">${this.submitButton('Add a passkey')} ${this.back('unlocked')}</div>
          </form>`;
      case 'change-passphrase':
        return html`<form @submit=${(e: SubmitEvent) => this.submit(e, (f) => this.model.setPassphrase(f.get('new') ?? '', f.get('again') ?? '', { passphrase: f.get('current') ?? '' }))}>
          ${this.field('current', 'Current passphrase', 'current-password')} ${this.field('new', 'New passphrase', 'new-password')}
          ${this.field('again', 'The new passphrase again', 'new-password')}
          <div class="actions">${this.submitButton('Change the passphrase')} ${this.back('unlocked')}</div>
        </form>`;
      case 'remove':
        return html`<p>
            Without a lock the vault opens by itself again in this browser, for anyone who can use it. Confirm with
            ${lock?.passkey && lock.passphrase ? 'your passkey or passphrase' : lock?.passkey ? 'your passkey' : 'your passphrase'}.
          </p>
          ${
            lock?.passkey
              ? html`<div class="actions">${this.button('Remove with your passkey', () => this.model.removeLock({ passkey: true }), 'negative')}</div>`
              : nothing
          }
          ${
            lock?.passphrase
              ? html`<form @submit=${(e: SubmitEvent) => this.submit(e, (f) => this.model.removeLock({ passphrase: f.get('current') ?? '' }))}>
                ${this.field('current', 'Current passphrase', 'current-password')}
                <div class="actions">${this.submitButton('Remove the lock', 'negative')}</div>
              </form>`
              : nothing
          }
          <div class="actions">${this.back('unlocked')}</div>`;
    }
  }

  /** Auto-lock's idle time (README, Key store and lock): never, 15 minutes, 1 hour or 4 hours without use. */
  private autoLockChoice(current: AutoLockMs | null) {
    const chosen = (event: Event) => {
      const value = (event.target as HTMLSelectElement).value;
      void this.model.setAutoLock(value === 'never' ? null : (Number(value) as AutoLockMs));
    };
    return html`<label for="autolock">Lock by itself</label>
      <select id="autolock" ?disabled=${this.model.state.busy} @change=${chosen}>
        <option value="never" ?selected=${current === null}>Never</option>
        ${AUTO_LOCK_CHOICES.map((ms) => html`<option value=${ms} ?selected=${current === ms}>After ${autoLockText(ms)} without use</option>`)}
      </select>`;
  }

  /** "Back up…" and "Restore…", with the vault unlocked (README, Backup and restore). */
  private backupActions() {
    if (!this.backup?.state.available) return nothing;
    return html`<h2>Backups</h2>
      <div class="actions">
        ${this.button('Back up…', () => this.backup.open('backup'))} ${this.button('Restore…', () => this.backup.open('restore'))}
      </div>`;
  }

  /** The parts the backup screens draw with, so they match the lock's. */
  private readonly parts: Parts = {
    button: (label, intent, variant, treatment) => this.button(label, intent, variant, treatment),
    submitButton: (label, variant) => this.submitButton(label, variant),
    field: (name, label, autocomplete) => this.field(name, label, autocomplete),
    submit: (event, intent) => this.submit(event, intent),
  };

  private button(label: string, intent: () => unknown, variant = 'secondary', treatment = 'fill') {
    return html`<button
      type="button"
      class="spectrum-Button spectrum-Button--${treatment} spectrum-Button--${variant} spectrum-Button--sizeM"
      ?disabled=${this.model.state.busy || !!this.backup?.state.busy}
      @click=${() => void intent()}
    >
      <span class="spectrum-Button-label">${label}</span>
    </button>`;
  }

  private submitButton(label: string, variant = 'accent') {
    return html`<button type="submit" class="spectrum-Button spectrum-Button--fill spectrum-Button--${variant} spectrum-Button--sizeM" ?disabled=${this.model.state.busy || !!this.backup?.state.busy}>
      <span class="spectrum-Button-label">${label}</span>
    </button>`;
  }

  private back(screen: Screen) {
    return html`<button type="button" class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeM" @click=${() => this.model.go(screen)}>
      <span class="spectrum-Button-label">Back</span>
    </button>`;
  }

  private field(name: string, label: string, autocomplete: string) {
    return html`<label for=${name}>${label}</label>
      <input id=${name} name=${name} type="password" autocomplete=${autocomplete} required />`;
  }

  /** Hands the form's fields to the intent and clears them at once: nothing stays in the page. */
  private submit(event: SubmitEvent, intent: (fields: { get(name: string): string | undefined }) => Promise<void>) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    form.reset();
    void intent({ get: (name) => (data.get(name) as string | null) ?? undefined });
  }
}
