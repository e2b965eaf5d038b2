// Requests waiting for the person (`status.waiting`): a value request is answered with `put` and
// its request id; any request can be cancelled. The prompt is the agent's untrusted text.
import { LitElement, html } from 'lit';
import type { PendingRequest } from '../src/contract.ts';
import { type PagePort, plain } from './vault-client.ts';
import { time } from './format.ts';
import { panelStyles } from './styles.ts';

export class PendingRequests extends LitElement {
  static override properties = { page: { attribute: false }, waiting: { attribute: false }, outcome: { state: true } };
  declare page: PagePort;
  declare waiting: PendingRequest[];
  declare outcome: string;
  static override styles = panelStyles;

  constructor() {
    super();
    this.waiting = [];
    this.outcome = '';
  }

  private async answer(event: SubmitEvent, request: PendingRequest) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const value = String(new FormData(form).get('value') ?? '');
    form.reset();
    try {
      const { state } = await this.page.request('put', { name: request.name!, value, request: request.id });
      this.outcome = `${request.name} answered; it is ${state}.`;
    } catch (error) {
      this.outcome = plain(error);
    }
  }

  private async cancel(request: PendingRequest) {
    try {
      await this.page.request('cancel', { request: request.id });
      this.outcome = `Request ${request.id} cancelled.`;
    } catch (error) {
      this.outcome = plain(error);
    }
  }

  override render() {
    if (!this.waiting.length) return html`<p class="muted">No request waits for you.</p>${this.outcome ? html`<p class="ok">${this.outcome}</p>` : ''}`;
    return html`
      ${this.waiting.map(
        (r) => html`<div class="warn" data-request=${r.id}>
          <div>
            <strong>${r.kind === 'value' ? `A value for ${r.name}` : r.kind === 'oauth' ? `Sign in to ${r.provider}` : r.kind === 'backup' ? 'A backup, in the vault popup' : r.kind === 'restore' ? 'A restore, in the vault popup' : `A key from another device for ${r.provider}`}</strong>
            <span class="muted">asked by ${r.uid === undefined ? 'this page' : `uid ${r.uid} (${r.tag})`}, expires ${time(r.expiresAt, true)}</span>
          </div>
          ${r.prompt ? html`<div>The program says (untrusted): <q>${r.prompt}</q></div>` : ''}
          <form class="row" @submit=${(e: SubmitEvent) => this.answer(e, r)}>
            ${
              r.kind === 'value'
                ? html`<label class="grow">Value for ${r.name}<input name="value" type="password" autocomplete="off" required minlength="8" /></label>
                  <button class="spectrum-Button spectrum-Button--fill spectrum-Button--accent spectrum-Button--sizeM" type="submit">
                    <span class="spectrum-Button-label">Answer</span>
                  </button>`
                : html`<span class="muted">This kind can only be cancelled in this version.</span>`
            }
            <button class="spectrum-Button spectrum-Button--outline spectrum-Button--secondary spectrum-Button--sizeM" type="button" @click=${() => this.cancel(r)}>
              <span class="spectrum-Button-label">Cancel request</span>
            </button>
          </form>
        </div>`,
      )}
      ${this.outcome ? html`<p class="ok">${this.outcome}</p>` : ''}
    `;
  }
}

customElements.define('demo-pending', PendingRequests);
