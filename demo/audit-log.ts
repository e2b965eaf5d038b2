// The audit log of Settings › Secrets: the first page comes with `list`, older ones with `audit`.
import { LitElement, html } from 'lit';
import type { AuditEntry } from '../src/contract.ts';
import { type PagePort, problem } from './vault-client.ts';
import { auditText, time } from './format.ts';
import { panelStyles } from './styles.ts';

export class AuditLog extends LitElement {
  static override properties = {
    page: { attribute: false },
    first: { attribute: false },
    firstMore: { attribute: false },
    older: { state: true },
    more: { state: true },
    error: { state: true },
  };
  declare page: PagePort;
  /** `list.audit` and `list.auditMore`: the newest page. */
  declare first: AuditEntry[];
  declare firstMore: boolean;
  declare older: AuditEntry[];
  declare more: boolean | null;
  declare error: unknown;
  static override styles = panelStyles;

  constructor() {
    super();
    this.first = [];
    this.firstMore = false;
    this.older = [];
    this.more = null;
    this.error = null;
  }

  override willUpdate(changed: Map<string, unknown>) {
    // A fresh first page (after any change) starts the paging anew.
    if (changed.has('first')) {
      this.older = [];
      this.more = null;
    }
  }

  private async loadMore() {
    const entries = [...this.first, ...this.older];
    try {
      const page = await this.page.request('audit', { before: entries.at(-1)!.seq, limit: 20 });
      this.older = [...this.older, ...page.audit];
      this.more = page.more;
    } catch (error) {
      this.error = error;
    }
  }

  override render() {
    const entries = [...this.first, ...this.older];
    const more = this.more ?? this.firstMore;
    return html`
      <div class="scroll">
      <table>
        <thead><tr><th>#</th><th>When</th><th>Type</th><th>What</th></tr></thead>
        <tbody>
          ${entries.map(
            (e) => html`<tr data-type=${e.type}>
              <td class="muted">${e.seq}</td>
              <td class="muted nowrap">${time(e.at, true)}</td>
              <td><span class="badge">${e.type === 'materialize' ? (e.refused ? 'refused' : 'revealed') : e.type}</span></td>
              <td>${auditText(e)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      </div>
      ${entries.length === 0 ? html`<p class="muted">Nothing yet.</p>` : ''}
      ${
        more
          ? html`<div class="row">
            <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeS" @click=${this.loadMore}>
              <span class="spectrum-Button-label">Older entries</span>
            </button>
          </div>`
          : ''
      }
      ${problem(this.error)}
    `;
  }
}

customElements.define('demo-audit', AuditLog);
