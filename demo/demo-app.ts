// The demo embedder, playing bios and spectrum: it embeds the vault frame and the lock button,
// opens a page port with a hello, keeps the status and Settings › Secrets' list fresh from the
// vault's events, and shows one panel at a time. It speaks only the vault's protocol.
import { LitElement, css, html } from 'lit';
import type { Availability, VaultList, VaultStatus } from '../src/contract.ts';
import { AgentPort, type PagePort, connect, problem, retold } from './vault-client.ts';
import { panelStyles, tokenSheets } from './styles.ts';
import './lock-button.ts';
import './status-bar.ts';
import './secrets-panel.ts';
import './policy-panel.ts';
import './sealed-console.ts';
import './forward-tester.ts';
import './agent-panel.ts';

const TABS = [
  ['secrets', 'Settings › Secrets'],
  ['policy', 'Policy'],
  ['sealed', '/dev/sealed'],
  ['forward', 'Forward'],
  ['agent', 'Agent'],
] as const;
type Tab = (typeof TABS)[number][0];

export class DemoApp extends LitElement {
  static override properties = {
    vaultOrigin: { state: true },
    page: { state: true },
    status: { state: true },
    list: { state: true },
    availability: { state: true },
    error: { state: true },
    tab: { state: true },
  };
  declare vaultOrigin: string;
  declare page: PagePort | null;
  declare status: VaultStatus | null;
  declare list: VaultList | null;
  declare availability: Availability | null;
  declare error: unknown;
  declare tab: Tab;

  static override styles = [
    ...tokenSheets,
    ...panelStyles,
    css`
      :host {
        display: block;
        min-block-size: 100vh;
      }
      .spectrum {
        min-block-size: 100vh;
        background: var(--spectrum-background-layer-1-color, #f8f8f8);
        font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
        font-size: var(--spectrum-font-size-100, 14px);
        line-height: 1.45;
      }
      header {
        display: flex;
        align-items: center;
        gap: 16px;
        padding: 10px 24px;
        background: var(--spectrum-background-layer-2-color, #fff);
        border-block-end: 1px solid var(--spectrum-gray-200, #e1e1e1);
      }
      header h1 {
        margin: 0;
        white-space: nowrap;
        font-size: 18px;
        font-weight: 700;
      }
      header .who {
        color: var(--spectrum-neutral-subdued-content-color-default, #666);
        font-size: 12px;
      }
      header .spacer {
        flex: 1;
      }
      nav {
        display: flex;
        gap: 4px;
        padding: 0 24px;
        background: var(--spectrum-background-layer-2-color, #fff);
        border-block-end: 1px solid var(--spectrum-gray-200, #e1e1e1);
      }
      nav a {
        padding: 10px 12px;
        color: var(--spectrum-neutral-subdued-content-color-default, #555);
        text-decoration: none;
        border-block-end: 2px solid transparent;
        font-weight: 600;
      }
      nav a[aria-current='page'] {
        color: var(--spectrum-neutral-content-color-default, #111);
        border-block-end-color: var(--spectrum-accent-color-900, #3b63fb);
      }
      main {
        padding: 20px 24px 48px;
        max-inline-size: 1400px;
      }
    `,
  ];

  constructor() {
    super();
    this.vaultOrigin = '';
    this.page = null;
    this.status = null;
    this.list = null;
    this.availability = null;
    this.error = null;
    this.tab = this.fromHash();
    addEventListener('hashchange', () => (this.tab = this.fromHash()));
  }

  private fromHash(): Tab {
    const want = location.hash.slice(1);
    return TABS.find(([id]) => id === want)?.[0] ?? 'secrets';
  }

  override async firstUpdated() {
    try {
      this.vaultOrigin = (await (await fetch('/demo-env.json')).json()).vaultOrigin;
    } catch (error) {
      this.error = retold(error, `The demo server gave no /demo-env.json, so the demo doesn't know where the vault is: start it with npm start.`);
      return;
    }
    try {
      // The vault's hidden frame, its hello and a page port (the package's client).
      const page = await connect({ vault: this.vaultOrigin, parent: this.renderRoot });
      this.status = page.status;
      const changed = () => {
        this.status = page.status;
        void this.refresh();
      };
      page.on('status', changed);
      page.on('changed', changed);
      page.on('refresh', changed);
      page.on('placeholders', (event) => {
        if (this.status) this.status = { ...this.status, scrub: event.scrub };
        void this.refresh();
      });
      this.page = page;
      await this.refresh();
    } catch (error) {
      this.error = retold(error, `The vault didn't welcome this page: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Re-reads the list (Settings › Secrets) and the status; the panels render from both. */
  refresh = async () => {
    if (!this.page) return;
    try {
      const [{ list }, { status }] = await Promise.all([this.page.request('list', {}), this.page.request('status', {})]);
      this.list = list;
      this.status = status;
    } catch (error) {
      this.error = error;
    }
  };

  /** A second hello over the same frame, as bios does for its agent worker. */
  openAgent = async (): Promise<AgentPort> => new AgentPort(await this.page!.agentPort());

  override render() {
    const ready = this.page !== null;
    return html`<div class="spectrum spectrum--light spectrum--medium">
      <header>
        <h1>SLICC seven</h1>
        <span class="who">demo embedder · ${location.origin}${crossOriginIsolated ? ' (cross-origin isolated)' : ''} · vault at ${this.vaultOrigin || '…'}</span>
        <span class="spacer"></span>
        <demo-status .status=${this.status} .page=${this.page} .availability=${this.availability}></demo-status>
        ${
          this.vaultOrigin
            ? html`<demo-lock-button
              .vaultOrigin=${this.vaultOrigin}
              @availability=${(e: CustomEvent<Availability>) => (this.availability = e.detail)}
            ></demo-lock-button>`
            : ''
        }
      </header>
      <nav aria-label="Panels">
        ${TABS.map(([id, label]) => html`<a href="#${id}" aria-current=${this.tab === id ? 'page' : 'false'}>${label}</a>`)}
      </nav>
      <main>
        ${problem(this.error)}
        ${
          ready
            ? html`
              <demo-secrets ?hidden=${this.tab !== 'secrets'} .page=${this.page} .list=${this.list} .status=${this.status} .refresh=${this.refresh}></demo-secrets>
              <demo-policy ?hidden=${this.tab !== 'policy'} .page=${this.page} .list=${this.list} .status=${this.status}></demo-policy>
              <demo-sealed ?hidden=${this.tab !== 'sealed'} .page=${this.page} .list=${this.list} .waiting=${this.status?.waiting ?? []}></demo-sealed>
              <demo-forward ?hidden=${this.tab !== 'forward'} .page=${this.page} .list=${this.list}></demo-forward>
              <demo-agent ?hidden=${this.tab !== 'agent'} .openAgent=${this.openAgent}></demo-agent>
            `
            : html`<p class="muted">Waiting for the vault to welcome this page…</p>`
        }
      </main>
    </div>`;
  }
}

customElements.define('demo-app', DemoApp);
