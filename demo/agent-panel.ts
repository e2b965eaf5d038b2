// The agent panel: a second hello over the same vault frame with role `agent`, as bios does for
// its agent worker. `redact` scrubs a text at once; the stream scrubs as you type, with
// `redactStream`, `push` for each new piece, `idle` after the vault's idleMs, and `end`. Its
// credentials: the records it may reference, a model credential by provider (what pi-ai's
// CredentialStore reads), an MCP server's credentials, a sign-in asked of the person (`grant`) and a
// renewal (`refresh`).
import { LitElement, css, html } from 'lit';
import type { AgentRecord, ScrubHit } from '../src/contract.ts';
import { type AgentPort, VaultError, problem, retold } from './vault-client.ts';
import { badge, time } from './format.ts';
import { panelStyles } from './styles.ts';

const enc = new TextEncoder();

export class AgentPanel extends LitElement {
  static override properties = {
    openAgent: { attribute: false },
    agent: { state: true },
    error: { state: true },
    redacted: { state: true },
    hits: { state: true },
    output: { state: true },
    streamHits: { state: true },
    streamState: { state: true },
    registered: { state: true },
    records: { state: true },
    credential: { state: true },
    credentialError: { state: true },
    registerError: { state: true },
    asked: { state: true },
  };
  declare openAgent: () => Promise<AgentPort>;
  declare agent: AgentPort | null;
  /** The last error of the port, the redact or the stream, shown in plain words. */
  declare error: unknown;
  declare redacted: string | null;
  declare hits: ScrubHit[];
  declare output: string;
  declare streamHits: ScrubHit[] | null;
  declare streamState: string;
  declare registered: string;
  declare registerError: unknown;
  declare records: AgentRecord[] | null;
  /** What the last credential op answered, as shown. */
  declare credential: string;
  declare credentialError: unknown;
  /** The agent's requests (`grant`, `refresh`) and the state each was read at. */
  declare asked: { op: 'grant' | 'refresh'; request: string; what: string; state: string }[];

  /** The open stream, what of the typed text went into it, and the chain its ops run on. */
  private stream: { id: string; idleMs: number } | null = null;
  private pushed = '';
  private decoder = new TextDecoder();
  private chain: Promise<void> = Promise.resolve();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private streams = 0;

  static override styles = [
    ...panelStyles,
    css`
      textarea {
        min-block-size: 6em;
      }
    `,
  ];

  constructor() {
    super();
    this.agent = null;
    this.error = null;
    this.redacted = null;
    this.hits = [];
    this.output = '';
    this.streamHits = null;
    this.streamState = 'no stream open';
    this.registered = '';
    this.registerError = null;
    this.records = null;
    this.credential = '';
    this.credentialError = null;
    this.asked = [];
  }

  /** Runs a credential op; `missing` says what to do when the vault has none (`ENOENT`). */
  private async credentialOp(run: () => Promise<string>, missing?: string) {
    this.credential = '';
    this.credentialError = null;
    try {
      this.credential = await run();
    } catch (error) {
      this.credentialError = missing && error instanceof VaultError && error.code === 'ENOENT' ? retold(error, missing) : error;
    }
  }

  private listRecords() {
    return this.credentialOp(async () => {
      this.records = (await this.agent!.request('records', {})).records;
      return '';
    });
  }

  private field(event: SubmitEvent, name: string) {
    event.preventDefault();
    return String(new FormData(event.target as HTMLFormElement).get(name) ?? '').trim();
  }

  private model(event: SubmitEvent) {
    const provider = this.field(event, 'provider');
    return this.credentialOp(async () => {
      const m = await this.agent!.request('model', { provider });
      return `${m.name} is ${m.placeholder}: pi-ai puts it where the key goes; the vault fills the key in for ${m.baseUrls.join(', ')} only.`;
    }, `No model key is bound to ${provider}: add one in Settings › Secrets, kind model, provider ${provider}.`);
  }

  private mcp(event: SubmitEvent) {
    const server = this.field(event, 'mcp-server');
    return this.credentialOp(async () => {
      const m = await this.agent!.request('mcp', { server });
      const keys = m.credentials.map((c) => `${c.name} is ${c.placeholder}`).join(', ');
      return keys
        ? `${m.server} is ${m.url}. ${keys}: the agent puts it in its MCP requests; the vault fills it in for that server only.`
        : `${m.server} is ${m.url}, and no MCP key is bound to it: add one in Settings › Secrets, kind mcp, server URL ${m.url}.`;
    }, `No MCP server ${server} is registered: register it under Endpoints below, or name it by its URL.`);
  }

  private grant(event: SubmitEvent) {
    const provider = this.field(event, 'grant-provider');
    const scopes = this.field(event, 'scopes')
      .split(/[\s,]+/)
      .filter(Boolean);
    return this.credentialOp(async () => {
      const { request } = (await this.agent!.request('grant', { provider, ...(scopes.length && { scopes }) })) as { request: string };
      this.asked = [...this.asked, { op: 'grant', request, what: `sign in to ${provider}`, state: 'pending' }];
      return `Asked the person to sign in to ${provider} (request ${request}): it waits in Settings › Secrets.`;
    });
  }

  private refresh(event: SubmitEvent) {
    const name = this.field(event, 'refresh-name');
    return this.credentialOp(async () => {
      const reply = await this.agent!.request('refresh', { name });
      if ('state' in reply && reply.state === 'fresh')
        return `${name} is fresh${'expiresAt' in reply && reply.expiresAt ? ` until ${time(reply.expiresAt)}` : ''}: nothing to renew.`;
      const request = (reply as { request: string }).request;
      this.asked = [...this.asked, { op: 'refresh', request, what: `renew ${name}`, state: 'pending' }];
      return `Asked the page to renew ${name} (request ${request}).`;
    });
  }

  /** Reads each request's state again, as the agent would poll it. */
  private check() {
    return this.credentialOp(async () => {
      this.asked = await Promise.all(
        this.asked.map(async (a) => {
          const r = (await this.agent!.request(a.op, { request: a.request })) as { state: string; name?: string; placeholder?: string };
          return { ...a, state: r.name ? `${r.state}: ${r.name} is ${r.placeholder}` : r.state };
        }),
      );
      return '';
    });
  }

  /** `endpoints`: a model base URL and an MCP server (with the mcp records it may use). */
  private async register(event: SubmitEvent) {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const field = (name: string) => String(data.get(name) ?? '').trim();
    const names = field('names')
      .split(/[\s,]+/)
      .filter(Boolean);
    const fields = {
      ...(field('model') && { model: [field('model')] }),
      ...(field('mcp') && { mcp: [{ server: field('server') || 'tools', url: field('mcp'), ...(names.length && { names }) }] }),
    };
    this.registered = '';
    this.registerError = null;
    try {
      await this.agent!.request('endpoints', fields);
      this.registered = `Registered ${[fields.model?.[0], fields.mcp?.[0]?.url].filter(Boolean).join(' and ')}. Rules that reach only these are refused now (Settings › Secrets).`;
    } catch (error) {
      this.registerError = error;
    }
  }

  private async connect() {
    try {
      this.agent = await this.openAgent();
      this.error = null;
    } catch (error) {
      this.error = error;
    }
  }

  private async redact() {
    const text = (this.renderRoot.querySelector('#redact-text') as HTMLTextAreaElement).value;
    try {
      const reply = await this.agent!.request('redact', { texts: [text] });
      this.redacted = String(reply.texts[0]);
      this.hits = reply.hits;
      this.error = null;
    } catch (error) {
      this.error = error;
    }
  }

  /** Runs stream work one step after another, in the order it was typed. */
  private queue(step: () => Promise<void>) {
    this.chain = this.chain.then(step).catch((error) => {
      this.error = error;
    });
    return this.chain;
  }

  private async openStream() {
    const id = `typing-${++this.streams}`;
    const opened = await this.agent!.request('redactStream', { stream: id });
    this.stream = { id, idleMs: opened.idleMs };
    this.pushed = '';
    this.output = '';
    this.decoder = new TextDecoder();
    this.streamHits = null;
    this.streamState = `stream ${id} open (values v${opened.version}, idle after ${opened.idleMs} ms)`;
  }

  private release(chunk: Uint8Array) {
    this.output += this.decoder.decode(chunk, { stream: true });
  }

  private async pushText(text: string) {
    const stream = this.stream!;
    const delta = text.slice(this.pushed.length);
    this.pushed = text;
    if (!delta) return;
    try {
      this.release((await this.agent!.request('push', { stream: stream.id, chunk: enc.encode(delta) })).chunk);
    } catch (error) {
      if (!(error instanceof VaultError && error.code === 'EAGAIN')) throw error;
      // The values changed under the stream: open it again and push the text from its start.
      await this.openStream();
      this.pushed = text;
      this.release((await this.agent!.request('push', { stream: this.stream!.id, chunk: enc.encode(text) })).chunk);
    }
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.queue(() => this.idle()), this.stream!.idleMs + 10);
  }

  private async idle() {
    if (!this.stream) return;
    this.release((await this.agent!.request('idle', { stream: this.stream.id })).chunk);
  }

  private typed(event: Event) {
    const text = (event.target as HTMLTextAreaElement).value;
    void this.queue(async () => {
      if (this.stream && !text.startsWith(this.pushed)) {
        // An edit before the end: what was released can't be taken back, so start a new stream.
        await this.agent!.request('drop', { stream: this.stream.id });
        this.stream = null;
      }
      if (!this.stream) await this.openStream();
      await this.pushText(text);
    });
  }

  private endStream() {
    clearTimeout(this.idleTimer);
    void this.queue(async () => {
      if (!this.stream) return;
      const end = await this.agent!.request('end', { stream: this.stream.id });
      this.release(end.chunk);
      this.output += this.decoder.decode();
      this.streamHits = end.hits;
      this.streamState = `stream ${this.stream.id} ended; typing again opens a new one`;
      this.stream = null;
      this.pushed = '';
      (this.renderRoot.querySelector('#stream-text') as HTMLTextAreaElement).value = '';
    });
  }

  private hitList(hits: ScrubHit[]) {
    return hits.length
      ? html`<ul>${hits.map((h) => html`<li><strong>${h.name}</strong> as ${h.form} × ${h.count}</li>`)}</ul>`
      : html`<p class="muted">No hits.</p>`;
  }

  override render() {
    if (!this.agent) {
      return html`<section class="card">
        <h2>Agent port</h2>
        <p class="hint">bios hands its agent worker a port of role <code>agent</code>: it may scrub text, register endpoints and read its credentials as placeholders, and never sees a value or an event.</p>
        <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" @click=${this.connect}>
          <span class="spectrum-Button-label">Say hello as the agent</span>
        </button>
        ${problem(this.error)}
      </section>`;
    }
    return html`
      <section class="card">
        <h2>Agent port <span class="badge active">agent</span></h2>
        <p class="hint">Paste something that holds one of your values: the vault gives it back with the placeholder, or <code>[redacted:NAME]</code> for an encoded form.</p>
        ${problem(this.error)}
        <label class="block" for="redact-text">A text to redact</label>
        <textarea id="redact-text" spellcheck="false"></textarea>
        <div class="row">
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" @click=${this.redact}>
            <span class="spectrum-Button-label">Redact</span>
          </button>
        </div>
        ${this.redacted !== null ? html`<pre data-testid="redacted">${this.redacted}</pre>${this.hitList(this.hits)}` : ''}
      </section>
      <section class="card">
        <h2>A stream, scrubbed as you type</h2>
        <p class="hint">
          Each keystroke is pushed; the vault releases what can't become a value at once and holds the rest. After ${this.stream?.idleMs ?? 250} ms
          without input it lets a short held tail through.
        </p>
        <label class="block" for="stream-text">What a program prints, typed key by key</label>
        <textarea id="stream-text" spellcheck="false" @input=${this.typed}></textarea>
        <div class="row">
          <span class="muted">${this.streamState}</span>
          <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeS" @click=${this.endStream}>
            <span class="spectrum-Button-label">End the stream</span>
          </button>
        </div>
        <h3>What the model would see</h3>
        <pre data-testid="stream-output">${this.output || ' '}</pre>
        ${this.streamHits ? this.hitList(this.streamHits) : ''}
      </section>
      <section class="card">
        <h2>Credentials, as placeholders</h2>
        <p class="hint">The agent never holds a key: it reads placeholders here and puts them where pi-ai puts a key; the vault fills the key in only for its own provider (Forward › A model request).</p>
        <div class="row">
          <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeM" @click=${this.listRecords}>
            <span class="spectrum-Button-label">List the records</span>
          </button>
        </div>
        ${
          this.records
            ? this.records.length
              ? html`<table data-testid="agent-records">
                  <thead><tr><th>name</th><th>kind</th><th>provider</th><th>placeholder</th><th>state</th></tr></thead>
                  <tbody>${this.records.map((r) => {
                    const b = badge(r);
                    return html`<tr data-record=${r.name}><td>${r.name}</td><td>${r.kind}</td><td>${r.provider ?? ''}</td><td><code>${r.placeholder}</code></td><td><span class="badge ${b.tone}" title=${b.means}>${b.label}</span></td></tr>`;
                  })}</tbody>
                </table>`
              : html`<p class="muted">No records.</p>`
            : ''
        }
        <form class="row" @submit=${this.model}>
          <label class="grow">Model key for the provider (an id or a base URL)<input name="provider" required placeholder="anthropic" /></label>
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" type="submit"><span class="spectrum-Button-label">Look up the model key</span></button>
        </form>
        <form class="row" @submit=${this.mcp}>
          <label class="grow">MCP keys for the server (a registered name or URL)<input name="mcp-server" required placeholder="tools" /></label>
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" type="submit"><span class="spectrum-Button-label">Look up the server's keys</span></button>
        </form>
        <form class="row" @submit=${this.grant}>
          <label class="grow">Ask the person to sign in to<input name="grant-provider" required placeholder="github" /></label>
          <label class="grow">scopes<input name="scopes" placeholder="repo read:org" /></label>
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" type="submit"><span class="spectrum-Button-label">Ask for a sign-in</span></button>
        </form>
        <form class="row" @submit=${this.refresh}>
          <label class="grow">Renew the sign-in value<input name="refresh-name" required placeholder="GITHUB_TOKEN" /></label>
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" type="submit"><span class="spectrum-Button-label">Refresh</span></button>
        </form>
        ${this.credential ? html`<p class="ok" role="status" data-testid="credential">${this.credential}</p>` : problem(this.credentialError)}
        ${
          this.asked.length
            ? html`<ul data-testid="asked">${this.asked.map((a) => html`<li data-request=${a.request}>${a.what}: <strong>${a.state}</strong></li>`)}</ul>
                <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeS" @click=${this.check}>
                  <span class="spectrum-Button-label">Check the requests</span>
                </button>`
            : ''
        }
      </section>
      <section class="card">
        <h2>Endpoints</h2>
        <p class="hint">The agent registers its model base URLs and MCP servers. The vault never injects a secret there; an MCP server gets only the mcp records it names.</p>
        <form class="row" @submit=${this.register}>
          <label class="grow">Model base URL<input name="model" placeholder="https://llm.example.com/v1" /></label>
          <label>MCP server<input name="server" placeholder="tools" /></label>
          <label class="grow">MCP URL<input name="mcp" placeholder="https://mcp.example.com/mcp" /></label>
          <label>its records<input name="names" placeholder="tools-token" /></label>
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" type="submit">
            <span class="spectrum-Button-label">Register</span>
          </button>
        </form>
        ${this.registered ? html`<p class="ok">${this.registered}</p>` : problem(this.registerError)}
      </section>
    `;
  }
}

customElements.define('demo-agent', AgentPanel);
