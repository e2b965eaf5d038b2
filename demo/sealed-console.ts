// The `/dev/sealed` console: what a program writes to the device, relayed by bios as the `sealed`
// op with the kernel's stamp of the caller, and the reply the kernel would hand back. It also plays
// the kernel's exec (README, Exec): an argv and kind in the stamp, an env of placeholders, and the
// values of the reply masked, as the child's environment would get them and no page should show.
import { LitElement, css, html } from 'lit';
import type { ExecKind, PendingRequest, SealedReply, Stamp, VaultList } from '../src/contract.ts';
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

/** The placeholder of that record, or an example one. */
function placeholderOf(list: VaultList | null | undefined, name: string): string {
  return list?.secrets.find((s) => s.name === name)?.placeholder ?? 'fnox_proxy_000000000000000000000000';
}

/** A reply as the console shows it: a `materialize`'s values masked, by their length. */
export function shown(reply: SealedReply | undefined): string {
  if (reply && 'env' in reply) {
    const env = Object.fromEntries(Object.entries(reply.env).map(([k, v]) => [k, `•••••••• (${v.length} characters, for the child's environment only)`]));
    return JSON.stringify({ ...reply, env }, null, 2);
  }
  return JSON.stringify(reply, null, 2);
}

/** The request `cancel` names: the newest waiting one. */
export const newest = (waiting: PendingRequest[]) => waiting.reduce<PendingRequest | undefined>((a, r) => (a && a.createdAt >= r.createdAt ? a : r), undefined);

/** The preset requests, naming a secret this namespace holds (README, /dev/sealed); `cancel`'s id is filled in when clicked. */
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
    ['cancel', null],
    ['seal', { op: 'seal', name: 'PROCESS_TOKEN', value: 'type-a-value-here' }],
    ['materialize (exec)', { op: 'materialize', env: { [name]: placeholderOf(list, name) } }],
  ];
}

interface Exchange {
  /** Its number, from 1: a reply carries it, so that a reader waits on its own and not an earlier one. */
  n: number;
  req: string;
  stamp: Stamp;
  reply?: SealedReply;
  error?: string;
}

export class SealedConsole extends LitElement {
  static override properties = {
    page: { attribute: false },
    list: { attribute: false },
    waiting: { attribute: false },
    note: { state: true },
    text: { state: true },
    stamp: { state: true },
    exec: { state: true },
    argv: { state: true },
    log: { state: true },
  };
  declare page: PagePort;
  /** The namespace's records (Settings › Secrets' list): the presets name one of its secrets. */
  declare list: VaultList | null | undefined;
  /** `status.waiting`: the `cancel` preset names the newest. */
  declare waiting: PendingRequest[];
  /** What a preset couldn't fill in. */
  declare note: string;
  declare text: string;
  declare stamp: Stamp;
  /** The kernel's exec the stamp carries (only `materialize` reads it): none, a program, or a shell. */
  declare exec: ExecKind | 'none';
  /** Its argv, one element a line. */
  declare argv: string;
  declare log: Exchange[];
  /** How many requests were sent. */
  sent = 0;
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
    this.exec = 'exec';
    this.argv = '/usr/bin/gh\nrelease\nupload\nv1.0.0';
    this.log = [];
    this.waiting = [];
    this.note = '';
  }

  private preset(req: unknown) {
    this.note = '';
    this.text = JSON.stringify(req, null, 1).replace(/\n\s*/g, ' ');
  }

  /**
   * `cancel` for the newest waiting request. Only its asker's uid, or uid 0, may cancel it, so the
   * stamp takes that uid; a request of the page or the agent has none, and is cancelled as root.
   */
  private cancelPreset() {
    const request = newest(this.waiting);
    if (!request) {
      this.note = 'No request is waiting, so there is none to cancel.';
      return;
    }
    this.preset({ op: 'cancel', id: request.id });
    const uid = request.uid ?? 0;
    if (this.stamp.uid !== 0 && this.stamp.uid !== uid) {
      this.stamp = { ...this.stamp, uid };
      this.note = `The stamp's uid is now ${uid}, the asker's: only it or root may cancel the request.`;
    }
  }

  private async send() {
    // The request goes as the text the program wrote: the vault parses it (bad JSON is EINVAL in
    // the reply, as for the kernel).
    const argv = this.argv.split('\n').filter((a) => a !== '');
    const exec = this.exec === 'none' ? undefined : { kind: this.exec, argv };
    const exchange: Exchange = { n: ++this.sent, req: this.text, stamp: { ...this.stamp, ...(exec && { exec }) } };
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
        <p class="hint">
          A program writes a JSON request to the device; the kernel stamps it with the caller; bios relays both to the vault. For
          <code>materialize</code> the kernel itself writes, while it performs an exec: the argv below is that exec's, and the values come back
          for the child's environment only (masked here).
        </p>
        <div class="row">
          ${presets(this.list).map(
            ([
              label,
              req,
            ]) => html`<button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeS" @click=${() => (req ? this.preset(req) : this.cancelPreset())}>
              <span class="spectrum-Button-label">${label}</span>
            </button>`,
          )}
        </div>
        ${this.note ? html`<p class="muted" role="status" data-testid="preset-note">${this.note}</p>` : ''}
        <label class="block" for="request">Request JSON, as the program writes it</label>
        <textarea id="request" spellcheck="false" .value=${this.text} @input=${(e: Event) => (this.text = (e.target as HTMLTextAreaElement).value)}></textarea>
        <div class="row">
          ${this.stampField('pid', 'pid')} ${this.stampField('ppid', 'ppid')} ${this.stampField('uid', 'uid')} ${this.stampField('gid', 'gid')}
          ${this.stampField('tag', 'tag')}
        </div>
        <div class="row">
          <label
            >The kernel's exec
            <select @change=${(e: Event) => (this.exec = (e.target as HTMLSelectElement).value as ExecKind | 'none')}>
              <option value="exec" ?selected=${this.exec === 'exec'}>a program (exec)</option>
              <option value="shell" ?selected=${this.exec === 'shell'}>a shell session</option>
              <option value="none" ?selected=${this.exec === 'none'}>none</option>
            </select></label
          >
          <label
            >argv, one per line
            <textarea rows="3" spellcheck="false" .value=${this.argv} @input=${(e: Event) => (this.argv = (e.target as HTMLTextAreaElement).value)}></textarea
          ></label>
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
            <div class="muted mono">
              uid ${x.stamp.uid} (${x.stamp.tag})${x.stamp.exec ? ` exec ${x.stamp.exec.kind} ${x.stamp.exec.argv.join(' ')}` : ''} →
              ${x.req.replace(/"value"\s*:\s*"[^"]*"/g, '"value":"…"')}
            </div>
            <pre data-testid="sealed-reply" data-n=${x.n} class=${x.error || (x.reply && 'error' in x.reply) ? 'error' : ''}>${x.error ?? shown(x.reply)}</pre>
          </div>`,
        )}
      </section>
    `;
  }
}

customElements.define('demo-sealed', SealedConsole);
