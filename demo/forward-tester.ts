// The forward tester: build a request head, pick the exit and its traits, and ask the vault to
// inject it (`forward`). An injected head is shown with the filled-in values hidden until asked;
// a refusal with its status and reason. Then the built-in echo upstream's response goes back
// through the vault's response port, and what comes out scrubbed is shown.
import { LitElement, css, html } from 'lit';
import type { ExitName, ForwardResult, RawTraits, RequestHead, Stamp, VaultList } from '../src/contract.ts';
import { type PagePort, problem } from './vault-client.ts';
import { type Scrubbed, echoResponse, filledIn, mask, relay } from './echo.ts';
import { panelStyles } from './styles.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

/** Where pi-ai sends a provider's model request, and the header its key goes in (README, Model and MCP endpoints). */
const MODEL_SHAPES: Record<string, { url: string; key: (placeholder: string) => string[] }> = {
  anthropic: { url: 'https://api.anthropic.com/v1/messages', key: (p) => [`x-api-key: ${p}`, 'anthropic-version: 2023-06-01'] },
  openai: { url: 'https://api.openai.com/v1/responses', key: (p) => [`Authorization: Bearer ${p}`] },
  google: {
    url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    key: (p) => [`x-goog-api-key: ${p}`],
  },
};

function parseHeaders(text: string): [string, string][] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0 ? [line, ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    });
}

export class ForwardTester extends LitElement {
  static override properties = {
    page: { attribute: false },
    list: { attribute: false },
    method: { state: true },
    url: { state: true },
    headers: { state: true },
    exit: { state: true },
    traits: { state: true },
    owner: { state: true },
    sent: { state: true },
    result: { state: true },
    echoed: { state: true },
    reveal: { state: true },
    error: { state: true },
    body: { state: true },
  };
  declare page: PagePort;
  declare list: VaultList | null;
  declare method: string;
  declare url: string;
  declare headers: string;
  declare exit: string;
  declare traits: RawTraits;
  declare owner: Stamp;
  declare sent: RequestHead | null;
  declare result: ForwardResult | null;
  declare echoed: Scrubbed | null;
  declare reveal: boolean;
  /** Why nothing was forwarded, in plain words: a refusal (the raw reply) is shown apart. */
  declare error: unknown;
  /** Sent only when not empty: the vault needs a body for MCP requests alone. */
  declare body: string;
  private edited = false;

  static override styles = [
    ...panelStyles,
    css`
      textarea {
        min-block-size: 6em;
      }
      #body {
        min-block-size: 3em;
      }
      input.num {
        inline-size: 6em;
      }
      .filled {
        background: var(--spectrum-positive-background-color-default, #007a4d);
        color: #fff;
        border-radius: 3px;
        padding: 0 4px;
        font-size: 11px;
      }
    `,
  ];

  constructor() {
    super();
    this.method = 'GET';
    this.url = 'https://api.example.com/v1/echo';
    this.headers = 'Accept: application/json\nAuthorization: Bearer fnox_proxy_…';
    this.exit = 'page';
    this.traits = { manualRedirects: true, encodedBodies: false };
    this.owner = { pid: 4242, ppid: 1, uid: 1000, gid: 1000, tag: 'curl' };
    this.sent = null;
    this.result = null;
    this.echoed = null;
    this.reveal = false;
    this.error = null;
    this.body = '';
  }

  private get secrets() {
    return (this.list?.secrets ?? []).filter((s) => s.state !== 'removed');
  }

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('list') && !this.edited && this.secrets[0]) this.useSecret(this.secrets[0].placeholder, false);
  }

  private useSecret(placeholder: string, edited = true) {
    const lines = parseHeaders(this.headers).filter(([n]) => n.toLowerCase() !== 'authorization');
    this.headers = [...lines.map(([n, v]) => `${n}: ${v}`), `Authorization: Bearer ${placeholder}`].join('\n');
    this.edited ||= edited;
  }

  /**
   * A model request as pi-ai builds it for the first model record: the key's placeholder in its
   * provider's header, a prompt body for the person to paste a value into.
   */
  private modelRequest() {
    const record = this.secrets.find((s) => s.kind === 'model' && s.provider);
    if (!record) {
      this.error = 'Add a model record first: Settings › Secrets, kind model, with its provider.';
      return;
    }
    const provider = record.provider!;
    // A base URL gets an OpenAI-compatible request; another catalog id keeps the URL typed here.
    const shape = MODEL_SHAPES[provider] ?? {
      url: provider.startsWith('https://') ? `${provider.replace(/\/+$/, '')}/chat/completions` : this.url,
      key: (p: string) => [`Authorization: Bearer ${p}`],
    };
    this.error =
      MODEL_SHAPES[provider] || provider.startsWith('https://')
        ? null
        : `Type the URL of a ${provider} model endpoint: the demo knows the shapes of ${Object.keys(MODEL_SHAPES).join(', ')}.`;
    this.method = 'POST';
    this.url = shape.url;
    this.headers = ['content-type: application/json', ...shape.key(record.placeholder)].join('\n');
    this.body = JSON.stringify({ model: 'a-model', messages: [{ role: 'user', content: 'Paste one of your values here: ' }] });
    this.traits = { ...this.traits, manualRedirects: true };
    this.edited = true;
  }

  private async send() {
    this.error = null;
    this.result = null;
    this.echoed = null;
    this.reveal = false;
    const head: RequestHead = { method: this.method, url: this.url, headers: parseHeaders(this.headers) };
    const channel = new MessageChannel();
    this.sent = head;
    try {
      const reply = await this.page.request(
        'forward',
        { head, owner: this.owner, exit: this.exit as ExitName, rawTraits: this.traits, ...(this.body && { body: this.body }) },
        [channel.port2],
      );
      this.result = 'refused' in reply ? { refused: reply.refused } : { head: reply.head, ...(reply.body && { body: reply.body }) };
      if ('head' in reply) this.echoed = await relay(channel.port1, echoResponse(reply.head));
      else channel.port1.close();
    } catch (error) {
      channel.port1.close();
      this.error = error;
    }
  }

  private injected() {
    const r = this.result;
    if (!r || !('head' in r) || !this.sent) return '';
    const values = filledIn(this.sent, r.head);
    const show = (text: string) => (this.reveal ? text : mask(text, values));
    return html`<section class="card" data-testid="injected">
      <h2><span class="badge inject">injected</span> The head bios would send</h2>
      <p class="hint">Values the vault filled in are hidden; reveal them to compare with what you typed in Settings.</p>
      <pre class="mono">${r.head.method} ${r.head.url}</pre>
      <table>
        <thead><tr><th>header</th><th>value</th><th></th></tr></thead>
        <tbody>
          ${r.head.headers.map(
            ([n, v], i) => html`<tr>
              <td><code>${n}</code></td>
              <td><code data-testid="header-value">${show(v)}</code></td>
              <td>${v !== this.sent!.headers[i]?.[1] ? html`<span class="filled" data-testid="filled">filled in by the vault</span>` : ''}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      ${r.body ? html`<h3>The body bios sends instead of its own, every value scrubbed out</h3><pre data-testid="sent-body">${new TextDecoder().decode(r.body)}</pre>` : ''}
      <div class="row">
        <label class="check"><input type="checkbox" .checked=${this.reveal} @change=${(e: Event) => (this.reveal = (e.target as HTMLInputElement).checked)} />reveal the filled-in values</label>
      </div>
    </section>`;
  }

  private echo() {
    const e = this.echoed;
    if (!e) return '';
    return html`<section class="card" data-testid="echo">
      <h2>The echo upstream's response, after the vault's scrub</h2>
      <p class="hint">
        The echo reflected the injected head, values and their base64 included; bios posted it through the response port, and the vault sent it back
        with each value as its placeholder and each encoded form as <code>[redacted:NAME]</code>.
      </p>
      ${
        e.head
          ? html`<pre data-testid="echo-head">${e.head.status} ${e.head.statusText}  ${e.head.url}
${e.head.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}</pre>`
          : html`<p class="warn">No response head came back.</p>`
      }
      <h3>Body</h3>
      <pre data-testid="echo-body">${e.body}</pre>
      <p class="muted">${e.end === 'end' ? 'end' : e.end === 'error' ? `error: ${e.error}` : 'the vault did not finish within 5 s'}</p>
    </section>`;
  }

  override render() {
    const r = this.result;
    const str = (e: Event) => (e.target as HTMLInputElement).value;
    return html`
      <section class="card">
        <h2>Forward</h2>
        <p class="hint">
          bios's exit router asks the vault to fill a kernel request's placeholders in, then sends it itself. Here nothing is sent: an echo upstream
          built into this page answers instead.
        </p>
        <div class="row">
          <label>Method<select .value=${this.method} @change=${(e: Event) => (this.method = str(e))}>
            ${METHODS.map((m) => html`<option ?selected=${m === this.method}>${m}</option>`)}
          </select></label>
          <label class="grow">URL<input .value=${this.url} @input=${(e: Event) => (this.url = str(e))} /></label>
        </div>
        <label class="block"><span>Headers, one <code>Name: value</code> a line</span>
          <textarea spellcheck="false" .value=${this.headers} @input=${(e: Event) => {
            this.headers = str(e);
            this.edited = true;
          }}></textarea>
        </label>
        <label class="block"><span>Body (sent to the vault for a model or MCP request, which comes back scrubbed)</span>
          <textarea id="body" spellcheck="false" .value=${this.body} @input=${(e: Event) => (this.body = str(e))}></textarea>
        </label>
        <div class="row">
          <label>Authorization for<select @change=${(e: Event) => this.useSecret(str(e))}>
            ${this.secrets.map((s) => html`<option value=${s.placeholder}>${s.name}</option>`)}
          </select></label>
           <label>Exit<input list="exits" .value=${this.exit} @change=${(e: Event) => (this.exit = str(e))} /></label>
          <datalist id="exits"><option>page</option><option>proxy</option><option>tailscale</option><option>device:my-laptop</option></datalist>
          <label class="check"><input type="checkbox" .checked=${!!this.traits.manualRedirects} @change=${(e: Event) => (this.traits = { ...this.traits, manualRedirects: (e.target as HTMLInputElement).checked })} />manual redirects</label>
          <label class="check"><input type="checkbox" .checked=${!!this.traits.encodedBodies} @change=${(e: Event) => (this.traits = { ...this.traits, encodedBodies: (e.target as HTMLInputElement).checked })} />encoded bodies</label>
          <label>owner uid<input class="num" type="number" .value=${String(this.owner.uid)} @change=${(e: Event) => (this.owner = { ...this.owner, uid: Number(str(e)) })} /></label>
          <label>tag<input class="num" .value=${this.owner.tag} @change=${(e: Event) => (this.owner = { ...this.owner, tag: str(e) })} /></label>
          <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeM" @click=${this.modelRequest}>
            <span class="spectrum-Button-label">A model request, as pi-ai sends it</span>
          </button>
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" @click=${this.send}>
            <span class="spectrum-Button-label">Forward</span>
          </button>
        </div>
        ${problem(this.error)}
        ${
          r && 'refused' in r
            ? html`<p class="warn" data-testid="refused"><span class="badge refuse">refused ${r.refused.status}</span> ${r.refused.reason}</p>`
            : ''
        }
      </section>
      ${this.injected()} ${this.echo()}
    `;
  }
}

customElements.define('demo-forward', ForwardTester);
