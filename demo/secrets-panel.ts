// Settings › Secrets: the records with their states, rules, `[exec]` mode and exits; adding a
// value (`put`), removing and restoring; the requests waiting; the refused rules; the audit log.
import { LitElement, html } from 'lit';
import type { RecordKind, RecordState, SecretView, VaultList, VaultStatus } from '../src/contract.ts';
import { type PagePort, codeOf, codeTip, plain, problem } from './vault-client.ts';
import { MEANS, badge, execText, kindText, ruleText, time } from './format.ts';
import endpoints from '../src/endpoints.json' with { type: 'json' };
import { panelStyles } from './styles.ts';
import './pending-requests.ts';
import './audit-log.ts';

/** The catalog's provider ids (the built-in model list the build writes), for a model record's provider. */
const PROVIDERS = [...new Set((endpoints as { providers?: string[] }[]).flatMap((e) => e.providers ?? []))].sort();

/** The legend's badges: a secret's states, then what a key or a sign-in shows instead. */
const LEGEND = [
  ['inert', 'inert', MEANS.inert],
  ['active', 'active', MEANS.active],
  ['removed', 'removed', MEANS.removed],
  ['model key', 'credential', MEANS.model],
  ['MCP key', 'credential', MEANS.mcp],
  ['sign-in', 'inert', MEANS.grant],
  ['unbound', 'inert', MEANS.unbound],
] as const;

/** The panel's notice: a record's line (read against its row when shown), or plain text. */
type Notice =
  | { kind: 'saved'; name: string; placeholder: string; state: RecordState }
  | { kind: 'restored'; name: string; placeholder?: undefined; state: RecordState }
  | { kind: 'removed'; name: string; placeholder?: undefined }
  | { kind: 'text'; text: string }
  | { kind: 'error'; text: string; code: string };

export class SecretsPanel extends LitElement {
  static override properties = {
    page: { attribute: false },
    list: { attribute: false },
    status: { attribute: false },
    refresh: { attribute: false },
    notice: { state: true },
    kind: { state: true },
    backupOutcome: { state: true },
    backupError: { state: true },
  };
  declare page: PagePort;
  declare list: VaultList | null;
  declare status: VaultStatus | null;
  declare refresh: () => Promise<void>;
  /** What the last action did, tied to the record it names so it never outlives what it says. */
  declare notice: Notice | null;
  /** The kind chosen in the add form: an `mcp` record asks for its server URL. */
  declare kind: RecordKind;
  declare backupOutcome: string;
  declare backupError: unknown;
  static override styles = panelStyles;

  constructor() {
    super();
    this.notice = null;
    this.backupOutcome = '';
    this.backupError = null;
    this.kind = 'secret';
  }

  /**
   * The notice as it reads now: a record's line follows its row, saying so when the row's state
   * changed since (a value saved inert that a rule now names is "active now"), and going once the
   * row no longer is what the line says (a removal undone by a restore, a rotation or a backup).
   */
  private noticeText(): string {
    const n = this.notice;
    if (!n) return '';
    if (n.kind === 'text' || n.kind === 'error') return n.text;
    const row = this.list?.secrets.find((s) => s.name === n.name && (n.placeholder === undefined || s.placeholder === n.placeholder));
    if (n.kind === 'removed') return row?.state === 'removed' ? `${n.name} removed; it can be restored for 30 days.` : '';
    if (!row || row.state === 'removed') return '';
    const was = `${n.name} ${n.kind === 'saved' ? `saved as ${n.placeholder}` : 'restored'} (${badge({ ...row, state: n.state }).label})`;
    if (row.state === n.state) return `${was}.`;
    const why = row.state === 'active' ? 'the policy names it' : row.state === 'inert' ? 'the policy no longer names it' : MEANS.unreadable;
    return `${was}; ${row.state} now: ${why}.`;
  }

  private async act(what: () => Promise<Notice>) {
    this.notice = null;
    try {
      this.notice = await what();
    } catch (error) {
      // Plain words for the person; the vault's code where a developer looks (the tooltip).
      this.notice = { kind: 'error', text: plain(error), code: codeOf(error) };
    }
    await this.refresh();
  }

  /** The page's `export` or `import`: a request the person finishes in the vault's popup. */
  private async ask(op: 'export' | 'import') {
    this.backupError = null;
    this.backupOutcome = '';
    try {
      await this.page.request(op, {});
      this.backupOutcome = `Asked the vault for a ${op === 'export' ? 'backup' : 'restore'}: click the lock button, which shows waiting, to finish it in the popup.`;
    } catch (error) {
      this.backupError = error;
    }
  }

  private add(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const name = String(data.get('name'));
    const value = String(data.get('value'));
    const kind = String(data.get('kind')) as RecordKind;
    // An mcp record is filled in only under its server's URL, a model record only for its provider
    // (README, Model and MCP endpoints).
    const provider = kind === 'mcp' || kind === 'model' ? String(data.get('provider') ?? '').trim() : undefined;
    // The value leaves the page's memory with the request; the field is cleared at once.
    (form.elements.namedItem('value') as HTMLInputElement).value = '';
    void this.act(async () => {
      const { placeholder, state } = await this.page.request('put', { name, value, kind, ...(provider && { provider }) });
      form.reset();
      this.kind = 'secret';
      return { kind: 'saved', name, placeholder, state };
    });
  }

  /** A date that never breaks inside, though "updated" may go above it when the table is narrow. */
  private when(ms: number) {
    return html`<span class="nowrap">${time(ms)}</span>`;
  }

  private badge(s: SecretView) {
    const b = badge(s);
    return html`<span class="badge ${b.tone}" data-testid="state" title=${b.means}>${b.label}</span>`;
  }

  private row(s: SecretView) {
    const removed = s.state === 'removed';
    return html`<tr data-secret=${s.name}>
      <td>
        <strong>${s.name}</strong><div class="muted">${kindText(s.kind)} · ${s.source}${s.provider ? ` · ${s.provider}` : ''}${s.account ? ` (${s.account})` : ''}</div>
        ${s.warning ? html`<div class="warn" data-testid="warning">${s.warning}</div>` : ''}
      </td>
      <td>${this.badge(s)}</td>
      <td><code>${s.placeholder}</code></td>
      <td>${s.rules.length ? s.rules.map((r) => html`<div class="mono">${ruleText(r)}</div>`) : html`<span class="muted">none</span>`}</td>
      <td>${execText(s)}</td>
      <td>${s.exits ? s.exits.join(', ') : html`<span class="muted">all</span>`}</td>
      <td class="muted times">updated ${this.when(s.updatedAt)}${s.usedAt ? html`<br />used ${this.when(s.usedAt)}` : ''}${s.expiresAt ? html`<br />expires ${this.when(s.expiresAt)}` : ''}</td>
      <td>
        ${
          removed
            ? html`<button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeS" @click=${() =>
                this.act(async () => ({ kind: 'restored', name: s.name, state: (await this.page.request('restore', { name: s.name })).state }))}>
              <span class="spectrum-Button-label">Restore</span>
            </button>`
            : html`<button class="spectrum-Button spectrum-Button--outline spectrum-Button--negative spectrum-Button--sizeS" @click=${() =>
                this.act(async () => {
                  await this.page.request('remove', { name: s.name });
                  return { kind: 'removed', name: s.name };
                })}>
              <span class="spectrum-Button-label">Remove</span>
            </button>`
        }
      </td>
    </tr>`;
  }

  /** Settings › Secrets lists every registration with a remove button (the page's `unregister`). */
  private registrations() {
    const registered = this.list?.registered;
    const rows = [
      ...(registered?.model ?? []).map((url) => ({ what: 'model', label: url, fields: { model: [url] } })),
      ...(registered?.mcp ?? []).map((s) => ({
        what: 'MCP',
        label: `${s.server} · ${s.url}${s.names ? ` (uses ${s.names.join(', ')})` : ''}`,
        fields: { mcp: [s.url] },
      })),
    ];
    if (rows.length === 0) return html`<p class="muted">None.</p>`;
    return html`<ul data-testid="registered">
      ${rows.map(
        (r) => html`<li>
          <span class="muted">${r.what}</span> <span class="mono">${r.label}</span>
          <button
            class="spectrum-Button spectrum-Button--outline spectrum-Button--negative spectrum-Button--sizeS"
            aria-label=${`Remove ${r.label}`}
            @click=${() =>
              this.act(async () => {
                await this.page.request('unregister', r.fields);
                return { kind: 'text', text: `${r.label} is no longer registered.` };
              })}
          >
            <span class="spectrum-Button-label">Remove</span>
          </button>
        </li>`,
      )}
    </ul>`;
  }

  override render() {
    const list = this.list;
    return html`
      <section class="card">
        <h2>Secrets</h2>
        <p class="hint">Values never come back from the vault: only names, placeholders and what the policy lets them do.</p>
        <form class="row" @submit=${this.add} aria-label="Add a secret">
          <label class="grow">Name<input name="name" required maxlength="128" pattern="[A-Za-z0-9_.:@\\/\\-]+" title="letters, digits and _ . : @ / - (a secret: an environment variable name)" placeholder="GITHUB_TOKEN" autocomplete="off" /></label>
          <label class="grow">Value<input name="value" type="password" required autocomplete="off" placeholder="at least 8 characters" /></label>
          <label>Kind<select name="kind" @change=${(e: Event) => (this.kind = (e.target as HTMLSelectElement).value as RecordKind)}>
            <option value="secret">secret</option><option value="model">model</option><option value="mcp">mcp</option><option value="grant">grant (Sign-in)</option>
          </select></label>
          ${
            this.kind === 'mcp'
              ? html`<label class="grow">MCP server URL<input name="provider" type="url" required autocomplete="off" pattern="(https://|http://[0-9]+\\.kernel\\.localhost/).*" placeholder="https://mcp.example.com/mcp" /></label>`
              : this.kind === 'model'
                ? html`<label class="grow">Provider (from the list, or an https base URL)<input name="provider" list="providers" required autocomplete="off" placeholder="anthropic" /></label>
                    <datalist id="providers">${PROVIDERS.map((p) => html`<option value=${p}></option>`)}</datalist>`
                : ''
          }
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" type="submit">
            <span class="spectrum-Button-label">Add</span>
          </button>
        </form>
        ${
          this.noticeText()
            ? html`<p
              class=${this.notice?.kind === 'error' ? 'warn error' : 'ok'}
              role="status"
              data-testid="outcome"
              title=${codeTip(this.notice?.kind === 'error' ? this.notice.code : '')}
            >${this.noticeText()}</p>`
            : ''
        }
        <div class="scroll">
        <table>
          <thead><tr><th>Name</th><th title="see the legend below">State</th><th>Placeholder</th><th>Rules</th><th>Exec</th><th title=${MEANS.exits}>Exits</th><th>Times</th><th></th></tr></thead>
          <tbody>${list?.secrets.map((s) => this.row(s))}</tbody>
        </table>
        </div>
        ${list && list.secrets.length === 0 ? html`<p class="muted">No secrets yet.</p>` : ''}
        <details class="legend">
          <summary>What the states and columns mean</summary>
          <dl>
            ${LEGEND.map(([label, tone, means]) => html`<dt><span class="badge ${tone}">${label}</span></dt><dd>${means.slice(label.length + 2)}.</dd>`)}
            <dt>Exec</dt><dd>
              whether the kernel may hand the value to a program it runs (<code>fnox exec -- gh …</code>), from <code>[exec]</code> in
              /etc/slicc/secrets-policy.toml: <em>never</em>; <em>argv</em>, only to a program whose command line starts as listed; <em>any</em> program; or
              <em>shell</em>, shell sessions too.
            </dd>
            <dt>Exits</dt><dd>${MEANS.exits.replace(/^exits: /, '')}.</dd>
          </dl>
        </details>
      </section>
      <section class="card" id="backups" aria-labelledby="backups-title">
        <h2 id="backups-title">Backups</h2>
        <p class="hint">
          A backup is an age file encrypted to a passphrase you choose in the vault's popup; restore takes such a file or a .env file.
          The page only asks: the lock button then shows <em>waiting</em>, and the popup opens on that screen.
          ${this.status?.exportedAt ? `Last backup: ${time(this.status.exportedAt)}.` : 'No backup yet.'}
        </p>
        <div class="row">
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" type="button" @click=${() => this.ask('export')}>
            <span class="spectrum-Button-label">Back up…</span>
          </button>
          <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeM" type="button" @click=${() => this.ask('import')}>
            <span class="spectrum-Button-label">Restore…</span>
          </button>
        </div>
        ${this.backupOutcome ? html`<p class="ok" role="status">${this.backupOutcome}</p>` : problem(this.backupError)}
      </section>
      <section class="card">
        <h2>Waiting for you</h2>
        <demo-pending .page=${this.page} .waiting=${this.status?.waiting ?? []} .secrets=${list?.secrets ?? []}></demo-pending>
      </section>
      <section class="card">
        <h2>Refused rules</h2>
        <p class="hint">Rules the vault dropped because they reach only a model or MCP endpoint.</p>
        ${
          list?.refused.length
            ? html`<ul>${list.refused.map((r) => html`<li><strong>${r.secret}</strong>: <span class="mono">${ruleText(r.rule)}</span> — ${r.reason}</li>`)}</ul>`
            : html`<p class="muted">None.</p>`
        }
      </section>
      <section class="card">
        <h2>Registered endpoints</h2>
        <p class="hint">Model base URLs and MCP servers the agent registered. The vault never injects a secret there; remove one that shouldn't be.</p>
        ${this.registrations()}
      </section>
      <section class="card">
        <h2>Audit log</h2>
        <demo-audit .page=${this.page} .first=${list?.audit ?? []} .firstMore=${list?.auditMore ?? false}></demo-audit>
      </section>
    `;
  }
}

customElements.define('demo-secrets', SecretsPanel);
