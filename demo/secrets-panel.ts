// Settings › Secrets: the records with their states, rules, `[exec]` mode and exits; adding a
// value (`put`), removing and restoring; the requests waiting; the refused rules; the audit log.
import { LitElement, html } from 'lit';
import type { RecordKind, SecretView, VaultList, VaultStatus } from '../src/contract.ts';
import { type PagePort, explain } from './vault-client.ts';
import { execText, kindText, ruleText, time } from './format.ts';
import endpoints from '../src/endpoints.json' with { type: 'json' };
import { panelStyles } from './styles.ts';
import './pending-requests.ts';

/** The catalog's provider ids (the built-in model list the build writes), for a model record's provider. */
const PROVIDERS = [...new Set((endpoints as { providers?: string[] }[]).flatMap((e) => e.providers ?? []))].sort();
import './audit-log.ts';

export class SecretsPanel extends LitElement {
  static override properties = {
    page: { attribute: false },
    list: { attribute: false },
    status: { attribute: false },
    refresh: { attribute: false },
    outcome: { state: true },
    failed: { state: true },
    saved: { state: true },
    kind: { state: true },
    backupOutcome: { state: true },
  };
  declare page: PagePort;
  declare list: VaultList | null;
  declare status: VaultStatus | null;
  declare refresh: () => Promise<void>;
  declare outcome: string;
  declare failed: boolean;
  /** The value just saved: its line follows the row's state (inert, then active once a rule allows it). */
  declare saved: { name: string; placeholder: string; state: string } | null;
  /** The kind chosen in the add form: an `mcp` record asks for its server URL. */
  declare kind: RecordKind;
  declare backupOutcome: string;
  static override styles = panelStyles;

  constructor() {
    super();
    this.outcome = '';
    this.failed = false;
    this.backupOutcome = '';
    this.saved = null;
    this.kind = 'secret';
  }

  /** The outcome line: for a value just saved, with the state its row has now. */
  private outcomeText() {
    if (!this.saved) return this.outcome;
    const { name, placeholder, state } = this.saved;
    const row = this.list?.secrets.find((s) => s.name === name && s.placeholder === placeholder);
    return `${name} saved as ${placeholder} (${row?.state ?? state}).`;
  }

  private async act(what: () => Promise<string>) {
    this.saved = null;
    try {
      this.outcome = await what();
      this.failed = false;
    } catch (error) {
      this.outcome = explain(error);
      this.failed = true;
    }
    await this.refresh();
  }

  /** The page's `export` or `import`: a request the person finishes in the vault's popup. */
  private async ask(op: 'export' | 'import') {
    try {
      await this.page.request(op, {});
      this.backupOutcome = `Asked the vault for a ${op === 'export' ? 'backup' : 'restore'}: click the lock button, which shows waiting, to finish it in the popup.`;
    } catch (error) {
      this.backupOutcome = explain(error);
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
      this.saved = { name, placeholder, state };
      this.kind = 'secret';
      return '';
    });
  }

  private row(s: SecretView) {
    const removed = s.state === 'removed';
    return html`<tr data-secret=${s.name}>
      <td>
        <strong>${s.name}</strong><div class="muted">${kindText(s.kind)} · ${s.source}${s.provider ? ` · ${s.provider}` : ''}${s.account ? ` (${s.account})` : ''}</div>
        ${s.warning ? html`<div class="warn" data-testid="warning">${s.warning}</div>` : ''}
      </td>
      <td><span class="badge ${s.state}" data-testid="state">${s.state}</span></td>
      <td><code>${s.placeholder}</code></td>
      <td>${s.rules.length ? s.rules.map((r) => html`<div class="mono">${ruleText(r)}</div>`) : html`<span class="muted">none</span>`}</td>
      <td>${execText(s)}</td>
      <td>${s.exits ? s.exits.join(', ') : html`<span class="muted">all</span>`}</td>
      <td class="muted nowrap">updated ${time(s.updatedAt)}${s.usedAt ? html`<br />used ${time(s.usedAt)}` : ''}${s.expiresAt ? html`<br />expires ${time(s.expiresAt)}` : ''}</td>
      <td>
        ${
          removed
            ? html`<button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeS" @click=${() =>
                this.act(async () => `${s.name} restored (${(await this.page.request('restore', { name: s.name })).state}).`)}>
              <span class="spectrum-Button-label">Restore</span>
            </button>`
            : html`<button class="spectrum-Button spectrum-Button--outline spectrum-Button--negative spectrum-Button--sizeS" @click=${() =>
                this.act(async () => (await this.page.request('remove', { name: s.name }), `${s.name} removed; it can be restored for 30 days.`))}>
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
            @click=${() => this.act(async () => (await this.page.request('unregister', r.fields), `${r.label} is no longer registered.`))}
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
        ${this.outcomeText() ? html`<p class=${this.failed ? 'warn error' : 'ok'} role="status" data-testid="outcome">${this.outcomeText()}</p>` : ''}
        <table>
          <thead><tr><th>Name</th><th>State</th><th>Placeholder</th><th>Rules</th><th>Exec</th><th>Exits</th><th>Times</th><th></th></tr></thead>
          <tbody>${list?.secrets.map((s) => this.row(s))}</tbody>
        </table>
        ${list && list.secrets.length === 0 ? html`<p class="muted">No secrets yet.</p>` : ''}
      </section>
      <section class="card" id="backups" aria-labelledby="backups-title">
        <h2 id="backups-title">Backups</h2>
        <p class="hint">
          A backup is an age file encrypted to a passphrase you choose in the vault's popup; restore takes such a file or a .env file.
          The page only asks: the lock button then shows <em>waiting</em>, and the popup opens on that screen.
          ${this.status?.exportedAt ? `Last backup: ${new Date(this.status.exportedAt).toLocaleString()}.` : 'No backup yet.'}
        </p>
        <div class="row">
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" type="button" @click=${() => this.ask('export')}>
            <span class="spectrum-Button-label">Back up…</span>
          </button>
          <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeM" type="button" @click=${() => this.ask('import')}>
            <span class="spectrum-Button-label">Restore…</span>
          </button>
        </div>
        ${this.backupOutcome ? html`<p class="ok" role="status">${this.backupOutcome}</p>` : ''}
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
