// The vault's lock button, embedded as bios embeds it: `button.html` in an iframe, told the theme
// and `panel: true` after `load`, and answering with the namespace's availability, which this
// element re-dispatches. A click on the button asks for the panel: this element shows `panel.html`
// in an iframe over the page (one at a time) and removes it when the panel says close.
import { LitElement, css, html, nothing } from 'lit';
import type { Availability, ButtonAvailability, ButtonHello, ButtonPanel, PanelClose } from '../src/contract.ts';

export class LockButton extends LitElement {
  static override properties = { vaultOrigin: { attribute: false }, panel: { state: true } };
  declare vaultOrigin: string;
  /** The panel's URL while it is shown. */
  declare panel: string | null;

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
    iframe.panel {
      position: fixed;
      inset-block-start: 56px;
      inset-inline-end: 16px;
      z-index: 10;
      inline-size: min(420px, calc(100vw - 32px));
      block-size: min(640px, calc(100vh - 72px));
      border: 1px solid #cacaca;
      border-radius: 8px;
      box-shadow: 0 4px 16px rgb(0 0 0 / 15%);
      background: #fff;
    }
  `;

  constructor() {
    super();
    this.panel = null;
  }

  private readonly onMessage = (event: MessageEvent) => {
    if (event.origin !== this.vaultOrigin) return;
    const [button, panel] = this.renderRoot.querySelectorAll('iframe');
    if (panel && event.source === panel.contentWindow) {
      const data = event.data as Partial<PanelClose> | null;
      if (data?.type === 'slicc-vault-panel' && data.v === 1 && data.op === 'close') this.panel = null;
      return;
    }
    if (!button || event.source !== button.contentWindow) return;
    const data = event.data as Partial<ButtonAvailability & ButtonPanel> | null;
    if (data?.type !== 'slicc-vault-button' || data.v !== 1) return;
    // The panel's URL must be the vault's: anything else is not shown.
    if (data.op === 'panel' && typeof data.url === 'string' && new URL(data.url).origin === this.vaultOrigin) this.panel ??= data.url;
    else if (data.availability) this.dispatchEvent(new CustomEvent<Availability>('availability', { detail: data.availability }));
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
    const hello: ButtonHello = { type: 'slicc-vault-button', v: 1, theme: 'light', scale: 'medium', panel: true };
    (event.target as HTMLIFrameElement).contentWindow!.postMessage(hello, this.vaultOrigin);
  }

  override render() {
    return html`<iframe title="Vault lock" src="${this.vaultOrigin}/button.html" @load=${this.loaded}></iframe>
      ${
        this.panel
          ? html`<iframe class="panel" title="Vault" src=${this.panel} allow="publickey-credentials-create; publickey-credentials-get"></iframe>`
          : nothing
      }`;
  }
}

customElements.define('demo-lock-button', LockButton);
