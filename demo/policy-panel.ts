// The policy panel: both kernel files, attested as bios's `kernel.attest` would (with the SHA-256
// from WebCrypto), sent with the `policy` op; the verdict per file, its warnings and the rules now
// in effect, next to what `status.policy` says.
import { LitElement, html } from 'lit';
import type { PolicyResult, SecretView, VaultList, VaultStatus } from '../src/contract.ts';
import { type PagePort, problem } from './vault-client.ts';
import { FNOX, type FileChoice, SECRETS_POLICY, attest, trustedChoice } from './attest.ts';
import { readable, ruleText } from './format.ts';
import { panelStyles } from './styles.ts';
import './attest-file.ts';

const usable = (list: VaultList | null) => (list?.secrets ?? []).filter((s) => s.kind === 'secret' && s.state !== 'removed');

/** A fnox config giving each secret its seven entry and one rule for api.example.com. */
export function fnoxTemplate(secrets: SecretView[]): string {
  const lines = ['# /etc/fnox/config.toml: which secret may go where, as fnox reads it', '[secrets]'];
  for (const s of secrets) lines.push(`${s.name} = { provider = "seven", value = "${s.placeholder}" }`);
  if (!secrets.length) lines.push('# add a secret in Settings › Secrets: its placeholder goes here');
  for (const s of secrets)
    lines.push('', '[[proxy.rules]]', `secret = "${s.name}"`, 'domain = "api.example.com"', 'methods = ["GET", "POST"]', 'paths = ["/v1/**"]');
  return `${lines.join('\n')}\n`;
}

export function secretsPolicyTemplate(secrets: SecretView[]): string {
  const name = secrets[0]?.name ?? 'GITHUB_TOKEN';
  return `# /etc/slicc/secrets-policy.toml: read by the vault only
[exec]
${name} = { argv = [["/usr/bin/gh", "release", "upload"]] }

[exits]
${name} = ["page", "proxy"]

[limits]
materialize_per_minute = 10
`;
}

export class PolicyPanel extends LitElement {
  static override properties = {
    page: { attribute: false },
    list: { attribute: false },
    status: { attribute: false },
    files: { state: true },
    include: { state: true },
    result: { state: true },
    error: { state: true },
  };
  declare page: PagePort;
  declare list: VaultList | null;
  declare status: VaultStatus | null;
  declare files: [FileChoice, FileChoice];
  declare include: [boolean, boolean];
  declare result: PolicyResult | null;
  declare error: unknown;
  /** Until the person edits a text, it follows the vault's secrets. */
  private edited = [false, false];
  static override styles = panelStyles;

  constructor() {
    super();
    this.files = [trustedChoice(FNOX, fnoxTemplate([])), trustedChoice(SECRETS_POLICY, secretsPolicyTemplate([]))];
    this.include = [true, true];
    this.result = null;
    this.error = null;
  }

  override willUpdate(changed: Map<string, unknown>) {
    if (!changed.has('list')) return;
    const secrets = usable(this.list);
    const [fnox, policy] = this.files;
    this.files = [
      this.edited[0] ? fnox : { ...fnox, text: fnoxTemplate(secrets) },
      this.edited[1] ? policy : { ...policy, text: secretsPolicyTemplate(secrets) },
    ];
  }

  private choose(i: 0 | 1, choice: FileChoice) {
    if (choice.text !== this.files[i].text) this.edited[i] = true;
    const files = [...this.files] as [FileChoice, FileChoice];
    files[i] = choice;
    this.files = files;
  }

  private async send() {
    this.error = null;
    try {
      const files = await Promise.all(this.files.filter((_, i) => this.include[i]).map((f) => attest(f)));
      this.result = await this.page.request('policy', { files });
    } catch (error) {
      this.result = null;
      this.error = error;
    }
  }

  /** The reply's warnings that aren't already shown under their file. */
  private others(r: PolicyResult) {
    const shown = new Set(r.files.flatMap((f) => f.warnings));
    return r.warnings.filter((w) => !shown.has(w));
  }

  private reset() {
    const secrets = usable(this.list);
    this.edited = [false, false];
    this.files = [trustedChoice(FNOX, fnoxTemplate(secrets)), trustedChoice(SECRETS_POLICY, secretsPolicyTemplate(secrets))];
  }

  override render() {
    const r = this.result;
    return html`
      <section class="card">
        <h2>Policy files</h2>
        <p class="hint">
          bios reads both files with <code>kernel.attest(path)</code> and passes the results on unchanged. Here you play the kernel: edit a file,
          change what the kernel would report about it, and see whether the vault trusts it.
        </p>
        <div class="columns">
          ${this.files.map(
            (f, i) => html`<demo-attest-file
              .choice=${f}
              .include=${this.include[i]}
              @choice=${(e: CustomEvent<FileChoice>) => this.choose(i as 0 | 1, e.detail)}
              @include=${(e: CustomEvent<boolean>) => (this.include = (i === 0 ? [e.detail, this.include[1]] : [this.include[0], e.detail]) as [boolean, boolean])}
            ></demo-attest-file>`,
          )}
        </div>
        <div class="row">
          <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" @click=${this.send} ?disabled=${!this.include.some(Boolean)}>
            <span class="spectrum-Button-label">Attest and send policy</span>
          </button>
          <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeM" @click=${this.reset}>
            <span class="spectrum-Button-label">Start over (trusted, from my secrets)</span>
          </button>
        </div>
        ${problem(this.error)}
      </section>
      ${
        r
          ? html`<section class="card" data-testid="policy-result">
            <h2>The vault's answer: <span class="badge ${r.accepted ? 'accepted' : 'refused'}">${r.accepted ? 'accepted' : 'not trusted'}</span></h2>
            ${r.files.map(
              (f) => html`<div class=${f.accepted ? 'ok' : 'warn'}>
                <code>${f.path}</code> — ${f.accepted ? 'trusted' : 'not trusted'}${f.sha256 ? html` <span class="muted mono">sha256 ${f.sha256.slice(0, 16)}…</span>` : ''}
                ${f.warnings.map((w) => html`<div class="warning">⚠ ${readable(w)}</div>`)}
              </div>`,
            )}
            ${this.others(r).map((w) => html`<div class="warn warning">${readable(w)}</div>`)}
            <h3>Rules in effect</h3>
            ${r.rules.length ? html`<ul>${r.rules.map((rule) => html`<li><strong>${rule.secret}</strong>: <span class="mono">${ruleText(rule)}</span></li>`)}</ul>` : html`<p class="muted">None.</p>`}
          </section>`
          : ''
      }
      <section class="card">
        <h2>What <code>status.policy</code> says</h2>
        ${
          this.status?.policy.length
            ? this.status.policy.map(
                (f) =>
                  html`<div class=${f.accepted ? 'ok' : 'warn'}><code>${f.path}</code>: ${f.accepted ? 'trusted' : 'not trusted'}${f.warnings.map((w) => html`<div>⚠ ${readable(w)}</div>`)}</div>`,
              )
            : html`<p class="muted">No policy call yet.</p>`
        }
      </section>
    `;
  }
}

customElements.define('demo-policy', PolicyPanel);
