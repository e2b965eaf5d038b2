// The vault's lock button, embedded as bios embeds it: `button.html` in an iframe, told the theme
// after `load`, and answering with the namespace's availability, which this element re-dispatches.
import { LitElement, css, html } from 'lit';
import type { Availability, ButtonAvailability, ButtonHello } from '../src/contract.ts';

export class LockButton extends LitElement {
  static override properties = { vaultOrigin: { attribute: false } };
  declare vaultOrigin: string;

  static override styles = css`
    :host {
      display: inline-flex;
    }
    iframe {
      border: 0;
      inline-size: 48px;
      block-size: 48px;
      color-scheme: normal;
    }
  `;

  private readonly onMessage = (event: MessageEvent) => {
    const frame = this.renderRoot.querySelector('iframe');
    const data = event.data as Partial<ButtonAvailability> | null;
    if (!frame || event.source !== frame.contentWindow || event.origin !== this.vaultOrigin) return;
    if (data?.type !== 'slicc-vault-button' || data.v !== 1 || !data.availability) return;
    this.dispatchEvent(new CustomEvent<Availability>('availability', { detail: data.availability }));
  };

  override connectedCallback() {
    super.connectedCallback();
    addEventListener('message', this.onMessage);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    removeEventListener('message', this.onMessage);
  }

  private loaded(event: Event) {
    const hello: ButtonHello = { type: 'slicc-vault-button', v: 1, theme: 'light', scale: 'medium' };
    (event.target as HTMLIFrameElement).contentWindow!.postMessage(hello, this.vaultOrigin);
  }

  override render() {
    return html`<iframe title="Vault lock" src="${this.vaultOrigin}/button.html" @load=${this.loaded}></iframe>`;
  }
}

customElements.define('demo-lock-button', LockButton);
