// The `/dev/sealed` console: what a program writes to the device, relayed by bios as the `sealed`
// op with the kernel's stamp of the caller, and the reply the kernel would hand back.
import { LitElement, css, html } from 'lit';
import type { SealedReply, Stamp, VaultList } from '../src/contract.ts';
import { type PagePort, explain } from './vault-client.ts';
import { panelStyles } from './styles.ts';

/** The secret the presets name: an active one first, else any the namespace holds, else an example. */
export function presetName(list: VaultList | null | undefined): string {
  const secrets = (list?.secrets ?? []).filter((s) => s.kind === 'secret' && s.state !== 'removed' && s.state !== 'unreadable');
  return (secrets.find((s) => s.state === 'active') ?? secrets[0])?.name ?? 'GITHUB_TOKEN';
}

/** A URL the secret's first rule allows (its domain and first path, wildcards filled), else an example. */
function presetUrl(list: VaultList | null | undefined, name: string): string {
  const rule = list?.secrets.find((s) => s.name === name)?.rules[0];
  if (!rule) return 'https://api.example.com/v1/user';
  const host = rule.domain.replace(/^\*\./, 'api.').replaceAll('*', 'x');
  const path = (rule.paths[0] ?? '/').replaceAll('**', 'x').replaceAll('*', 'x');
  return `https://${host}${path.startsWith('/') ? path : `/${path}`}`;
}

/** The preset requests, naming a secret this namespace holds (README, /dev/sealed). */
function presets(list: VaultList | null | undefined): [string, unknown][] {
  const name = presetName(list);
  const rule = list?.secrets.find((s) => s.name === name)?.rules[0];
  const method = rule?.methods.find((m) => m !== '*') ?? 'GET';
  return [
    ['list', { op: 'list' }],
    ['placeholder', { op: 'placeholder', name }],
    ['test', { op: 'test', name, url: presetUrl(list, name), method, exit: 'page' }],
    ['request a value', { op: 'request', kind: 'value', name: 'NPM_TOKEN', prompt: 'npm publish needs a token' }],
    ['status', { op: 'status' }],
    ['cancel', { op: 'cancel', id: '' }],
    ['seal', { op: 'seal', name: 'PROCESS_TOKEN', value: 'type-a-value-here' }],
    ['materialize', { op: 'materialize', name }],
  ];
}

interface Exchange {
  req: string;
  stamp: Stamp;
  reply?: SealedReply;
  error?: string;
}

export class SealedConsole extends LitElement {
  static override properties = { page: { attribute: false }, list: { attribute: false }, text: { state: true }, stamp: { state: true }, log: { state: true } };
  declare page: PagePort;
  /** The namespace's records (Settings › Secrets' list): the presets name one of its secrets. */
  declare list: VaultList | null | undefined;
  declare text: string;
  declare stamp: Stamp;
  declare log: Exchange[];
  static override styles = [
    ...panelStyles,
    css`
      input.num {
        inline-size: 6em;
      }
      .exchange {
        margin-block: 8px;
      }
    `,
  ];

  constructor() {
    super();
    this.text = JSON.stringify({ op: 'list' });
    this.stamp = { pid: 4242, ppid: 1, uid: 1000, gid: 1000, tag: 'demo' };
    this.log = [];
  }

  private async send() {
    // The request goes as the text the program wrote: the vault parses it (bad JSON is EINVAL in
    // the reply, as for the kernel).
    const exchange: Exchange = { req: this.text, stamp: { ...this.stamp } };
    try {
      exchange.reply = (await this.page.request('sealed', { req: this.text, stamp: exchange.stamp })).reply;
    } catch (error) {
      exchange.error = explain(error);
    }
    this.log = [exchange, ...this.log].slice(0, 20);
  }

  private stampField(key: keyof Stamp, label: string) {
    const numeric = key !== 'tag';
    return html`<label>${label}<input
        class=${numeric ? 'num' : ''}
        aria-label="stamp ${key}"
        type=${numeric ? 'number' : 'text'}
        .value=${String(this.stamp[key])}
        @change=${(e: Event) => {
          const v = (e.target as HTMLInputElement).value;
          this.stamp = { ...this.stamp, [key]: numeric ? Number(v) : v };
        }}
    /></label>`;
  }

  override render() {
    return html`
      <section class="card">
        <h2><code>/dev/sealed</code></h2>
        <p class="hint">A program writes a JSON request to the device; the kernel stamps it with the caller; bios relays both to the vault.</p>
        <div class="row">
          ${presets(this.list).map(
            ([
              label,
              req,
            ]) => html`<button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeS" @click=${() => (this.text = JSON.stringify(req, null, 1).replace(/\n\s*/g, ' '))}>
              <span class="spectrum-Button-label">${label}</span>
            </button>`,
          )}
        </div>
        <textarea aria-label="request JSON" spellcheck="false" .value=${this.text} @input=${(e: Event) => (this.text = (e.target as HTMLTextAreaElement).value)}></textarea>
        <div class="row">
          ${this.stampField('pid', 'pid')} ${this.stampField('ppid', 'ppid')} ${this.stampField('uid', 'uid')} ${this.stampField('gid', 'gid')}
          ${this.stampField('tag', 'tag')}
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" @click=${this.send}>
            <span class="spectrum-Button-label">Send</span>
          </button>
        </div>
      </section>
      <section class="card">
        <h2>Replies</h2>
        ${this.log.length === 0 ? html`<p class="muted">Nothing sent yet.</p>` : ''}
        ${this.log.map(
          (x) => html`<div class="exchange">
            <div class="muted mono">uid ${x.stamp.uid} (${x.stamp.tag}) → ${x.req.replace(/"value"\s*:\s*"[^"]*"/g, '"value":"…"')}</div>
            <pre data-testid="sealed-reply" class=${x.error || (x.reply && 'error' in x.reply) ? 'error' : ''}>${x.error ?? JSON.stringify(x.reply, null, 2)}</pre>
          </div>`,
        )}
      </section>
    `;
  }
}

customElements.define('demo-sealed', SealedConsole);
