// The vault's lock button, embedded as bios embeds it, through the package's client (`VaultButton`):
// `button.html` in an iframe told `panel: true`, its availability re-dispatched, and a click showing
// `panel.html` in one iframe over the page until the panel says close.
import { LitElement, css } from 'lit';
import type { Availability } from '../src/contract.ts';
import { VaultButton } from './vault-client.ts';

export class LockButton extends LitElement {
  static override properties = { vaultOrigin: { attribute: false } };
  declare vaultOrigin: string;
  private button: VaultButton | null = null;

  static override styles = css`
    :host {
      display: inline-flex;
    }
  `;

  override connectedCallback() {
    super.connectedCallback();
    this.button = new VaultButton({ vault: this.vaultOrigin, parent: this.renderRoot, panelParent: this.renderRoot });
    this.button.addEventListener('availability', (event) =>
      this.dispatchEvent(new CustomEvent<Availability>('availability', { detail: (event as CustomEvent<Availability>).detail })),
    );
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.button?.remove();
    this.button = null;
  }
}

customElements.define('demo-lock-button', LockButton);
