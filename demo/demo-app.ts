// The demo embedder, playing bios: it embeds the vault frame, says hello and shows the welcome.
// It speaks only the vault's protocol (the contract types), never the vault's modules.
import { LitElement, css, html } from 'lit';
import type { PageMessage, VaultStatus } from '../src/contract.ts';

export class DemoApp extends LitElement {
  static override properties = { status: { state: true }, error: { state: true } };
  declare status: VaultStatus | null;
  declare error: string;
  private vaultOrigin = '';

  static override styles = css`
    :host { display: block; font: 14px/1.5 system-ui, sans-serif; margin: 2rem; }
    iframe { display: none; }
    pre { background: #f4f4f4; padding: 1rem; border-radius: 6px; }
  `;

  constructor() {
    super();
    this.status = null;
    this.error = '';
  }

  override async firstUpdated() {
    this.vaultOrigin = (await (await fetch('/demo-env.json')).json()).vaultOrigin;
    const frame = document.createElement('iframe');
    frame.src = `${this.vaultOrigin}/`;
    frame.title = 'slicc-vault';
    frame.addEventListener('load', () => this.hello(frame));
    this.renderRoot.appendChild(frame);
  }

  private hello(frame: HTMLIFrameElement) {
    const channel = new MessageChannel();
    channel.port1.onmessage = ({ data }: MessageEvent<PageMessage>) => {
      if (data.op === 'welcome') this.status = data.status;
      else if (data.op === 'refused') this.error = data.error.message;
      else if (data.op === 'status' && !('id' in data)) this.status = data.status;
    };
    frame.contentWindow!.postMessage({ type: 'slicc-vault', v: 1, op: 'hello', role: 'page' }, this.vaultOrigin, [channel.port2]);
  }

  override render() {
    return html`
      <h1>slicc-vault demo embedder</h1>
      <p>This page plays bios: it embeds the vault from <code>${this.vaultOrigin || '…'}</code> and says hello.</p>
      ${this.error ? html`<p role="alert">Refused: ${this.error}</p>` : ''}
      ${this.status ? html`<h2>Welcome</h2><pre>${JSON.stringify(this.status, null, 2)}</pre>` : html`<p>Waiting for the vault…</p>`}
    `;
  }
}

customElements.define('demo-app', DemoApp);
