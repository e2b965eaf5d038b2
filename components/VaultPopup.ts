import { LitElement, type PropertyValues, html, nothing } from 'lit';
import { BackupController, type BackupModel } from './backup-controller.ts';
import { BACKUP_TITLES, backupScreen, backupStyles } from './backup-screens.ts';
import { LockController, type Outcome, type PopupModel, type PopupState } from './lock-controller.ts';
import { LOCK_TITLES, lockScreen } from './lock-screens.ts';
import { PanelFrame } from './panel-frame.ts';
import { OPEN, popupParts } from './popup-parts.ts';
import { PopupPresence } from './popup-presence.ts';
import { PopupWorld } from './popup-world.ts';
import { spectrumClass, spectrumSheets } from './spectrum.ts';
import { popupStyles } from './vault-popup.styles.ts';

/**
 * The lock popup (popup.html), and the panel (panel.html, `<vault-panel>`): the same screens, in a
 * window of their own or in a frame the embedder shows. It renders the models' screen and forwards
 * what the person asks for; passphrases go from the form straight to the model and the form is cleared.
 */
export class VaultPopup extends LitElement {
  static override styles = [...spectrumSheets, backupStyles, popupStyles];
  /** The panel: this element in the embedder's frame (README, Key store and lock: the panel). */
  static framed = false;

  static override properties = { model: { attribute: false }, backup: { attribute: false } };
  /** The lock controller; tests may give one of their own before the element connects. */
  declare model: PopupModel;
  /** Backups and restores (README, Backup and restore); tests may give one of their own too. */
  declare backup: BackupModel;

  /** The panel's frame: its namespace, close message and guard; null in the popup. */
  protected readonly frame = (this.constructor as typeof VaultPopup).framed ? new PanelFrame(this) : null;

  constructor() {
    super();
    // Tells the lock button this popup is up, and comes forward when it asks (the host keeps it).
    if (!this.frame) new PopupPresence(this);
  }

  override connectedCallback() {
    if (!this.model || !this.backup) {
      // One world (settings, database, key ring, bus) for both controllers.
      const world = new PopupWorld(this, window, this.frame ? this.frame.site : undefined);
      const backup = this.backup ? null : new BackupController(this, world);
      this.backup ??= backup!;
      if (!this.model) {
        const lock = new LockController(this, world);
        // Opened to unlock for a backup or restore the page asked for: stay open after unlocking.
        if (backup) lock.keepOpen = () => backup.active;
        if (this.frame) lock.close = () => this.frame!.close();
        this.model = lock;
      }
    }
    super.connectedCallback();
  }

  /** The backup screen shown instead of the lock's, when one is open and the vault is unlocked. */
  private get task() {
    const { screen } = this.model.state;
    return this.backup?.state.available && (screen === 'auto' || screen === 'unlocked') ? this.backup.state.task : null;
  }

  private readonly parts = popupParts(() => this.model.state.busy || !!this.backup?.state.busy, this.frame ?? OPEN);

  override render() {
    const { screen, theme, scale } = this.model.state;
    const task = this.task;
    const backup = this.backup?.state;
    const outcome = this.outcomeOn(task ?? screen);
    const busy = this.model.state.busy || !!backup?.busy;
    // Any press or key in the popup is the person using the vault: auto-lock starts again.
    return html`<main
      class=${spectrumClass(theme, scale)}
      aria-busy=${busy ? 'true' : 'false'}
      @pointerdown=${() => this.model.touch()}
      @keydown=${() => this.model.touch()}
    >
      <h1 tabindex="-1">${task ? BACKUP_TITLES[task] : LOCK_TITLES[screen]}</h1>
      ${this.frame ? this.site(this.frame) : nothing}
      ${task ? backupScreen(this.backup, this.parts) : lockScreen(screen, this.model, this.backup, this.parts)}
      ${
        task && this.model.state.lock
          ? html`<div class="actions">${this.parts.button('Lock now', () => this.model.lockNow(), 'secondary', 'outline', !!backup?.stoppable)}</div>`
          : nothing
      }
      <div role="status" aria-live="polite">
        ${backup?.working ? html`<p class="outcome">${backup.working}</p>` : nothing}
        ${outcome?.kind === 'success' ? html`<p class="outcome success">${outcome.text}</p>` : nothing}
      </div>
      <div role="alert">${outcome?.kind === 'error' ? html`<p class="outcome error">${outcome.text}</p>` : nothing}</div>
      ${
        this.frame
          ? html`<div class="actions close">
              ${this.parts.button(outcome?.kind === 'success' ? 'Done' : 'Close', () => this.frame!.close(), 'secondary', 'outline', true)}
            </div>`
          : nothing
      }
    </main>`;
  }

  /**
   * The panel names the site it serves on every screen, since a frame has no address bar; and says
   * when something covers it, so no passphrase or passkey is taken (Chromium alone can tell).
   */
  private site(frame: PanelFrame) {
    return html`<p class="site">
        ${frame.site ? html`For the SLICC site <code>${frame.site}</code>` : 'Not opened by a SLICC site: backups are not offered here.'}
      </p>
      ${
        frame.covered && frame.seen
          ? html`<p class="outcome error covered">Something covers this panel, so it takes no passphrase or passkey. Make sure nothing is on top of it.</p>`
          : nothing
      }`;
  }

  protected override updated(changed: PropertyValues) {
    super.updated(changed);
    const screen = this.task ?? this.model.state.screen;
    const outcome = this.outcomeOn(screen);
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

  /**
   * The outcome to show on `screen`: each outcome (the lock's or the backups') belongs to the screen
   * it was first shown on, and goes for good once the screen changes, so a "Done" of one task
   * never stays on the next task's screen. The newest of them shows.
   */
  private outcomeOn(screen: string): Outcome | null {
    let shown: Outcome | null = null;
    for (const outcome of [this.model.state.outcome, this.backup?.state.outcome]) {
      if (!outcome) continue;
      let home = this.homes.get(outcome);
      if (!home) this.homes.set(outcome, (home = { screen, n: ++this.outcomes }));
      if (home.screen !== screen) home.gone = true;
      else if (!home.gone && (!shown || home.n > this.homes.get(shown)!.n)) shown = outcome;
    }
    return shown;
  }
  private readonly homes = new WeakMap<Outcome, { screen: string; n: number; gone?: boolean }>();
  private outcomes = 0;
}
