// The header's summary of `status`: lock, scrub state and the backup reminder, and what the lock
// button says.
import { LitElement, css, html } from 'lit';
import type { Availability, VaultStatus } from '../src/contract.ts';
import type { PagePort } from './vault-client.ts';
import { MEANS } from './format.ts';
import { panelStyles } from './styles.ts';

export class StatusBar extends LitElement {
  static override properties = {
    status: { attribute: false },
    page: { attribute: false },
    availability: { attribute: false },
  };
  declare status: VaultStatus | null;
  declare page: PagePort | null;
  declare availability: Availability | null;

  static override styles = [
    ...panelStyles,
    css`
      :host {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 8px;
        font-size: 12px;
      }
      /* Always in the row, hidden when nothing waits: the header doesn't reflow when a request comes. */
      .waiting[aria-hidden='true'] {
        visibility: hidden;
      }
    `,
  ];

  override render() {
    const s = this.status;
    if (!s) return html`<span class="badge">connecting</span>`;
    const lock = s.lock ? [s.lock.passphrase && 'passphrase', s.lock.passkey && 'passkey'].filter(Boolean).join(' + ') : 'auto-unlock';
    return html`
      <span class="badge ${s.locked ? 'removed' : 'active'}" data-testid="locked">${s.locked ? 'locked' : 'unlocked'}</span>
      <span class="muted" title="status.lock">lock: ${lock}</span>
      <span class="muted" title=${`status.scrub. ${MEANS.needed}; ${MEANS.version}; ${MEANS.ready}.`}>scrub: ${s.scrub.needed ? 'needed' : 'not needed'}, v${s.scrub.version}${s.scrub.ready ? ', ready' : ', not ready'}</span>
      <span class="badge refused waiting" data-testid="waiting" aria-hidden=${s.waiting.length ? 'false' : 'true'} title="requests waiting for you (status.waiting)">${Math.max(1, s.waiting.length)} waiting</span>
      ${
        s.backupReminder === 'due'
          ? html`<a href="#secrets" @click=${this.toBackups}>back up your secrets</a>
            <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeS" @click=${this.dismiss}>
              <span class="spectrum-Button-label">Dismiss</span>
            </button>`
          : ''
      }
      <span class="muted" title="what the lock button told this page">button: <span data-testid="availability">${this.availability ?? '…'}</span></span>
    `;
  }

  private dismiss = () => void this.page?.request('dismissBackupReminder', {});
  /** The reminder leads to Settings › Secrets › Backups ("Back up…"). */
  private toBackups = () => {
    requestAnimationFrame(() => {
      const app = document.querySelector('demo-app');
      const card = app?.shadowRoot?.querySelector('demo-secrets')?.shadowRoot?.querySelector('#backups');
      card?.scrollIntoView({ block: 'center' });
      card?.querySelector('button')?.focus();
    });
  };
}

customElements.define('demo-status', StatusBar);
