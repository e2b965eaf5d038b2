// Requests waiting for the person (`status.waiting`): a value request is answered with `put` and
// its request id; a sign-in (`oauth`, from the kernel or the agent's `grant`) with `seal` of the
// access token the sign-in gave; a renewal (`refresh`) with `seal` of the new value under the same
// name. Any request can be cancelled. Prompts, scopes and accounts are the asker's untrusted text.
import { LitElement, html } from 'lit';
import type { PendingRequest, RecordKind, SecretView } from '../src/contract.ts';
import { type PagePort, problem } from './vault-client.ts';
import { time } from './format.ts';
import { panelStyles } from './styles.ts';

const button = (label: string, kind: 'accent' | 'secondary' = 'accent', type: 'submit' | 'button' = 'submit', click?: () => void) =>
  html`<button class="spectrum-Button spectrum-Button--${kind === 'accent' ? 'fill' : 'outline'} spectrum-Button--${kind} spectrum-Button--sizeM" type=${type} @click=${click}>
    <span class="spectrum-Button-label">${label}</span>
  </button>`;

function title(r: PendingRequest): string {
  switch (r.kind) {
    case 'value':
      return `A value for ${r.name}`;
    case 'oauth':
      return `Sign in to ${r.provider}`;
    case 'refresh':
      return `Renew ${r.name}, a sign-in to ${r.provider}`;
    case 'backup':
      return 'A backup, in the vault popup';
    case 'restore':
      return 'A restore, in the vault popup';
    default:
      return `A key from another device for ${r.provider}`;
  }
}

const askedBy = (r: PendingRequest) => (r.agent ? 'the agent' : r.uid === undefined ? 'this page' : `uid ${r.uid} (${r.tag})`);

export class PendingRequests extends LitElement {
  static override properties = {
    page: { attribute: false },
    waiting: { attribute: false },
    secrets: { attribute: false },
    outcome: { state: true },
    failure: { state: true },
  };
  declare page: PagePort;
  declare waiting: PendingRequest[];
  /** Settings' records: a renewal seals the same kind and provider as the record it renews. */
  declare secrets: SecretView[];
  declare outcome: string;
  declare failure: unknown;
  static override styles = panelStyles;

  constructor() {
    super();
    this.waiting = [];
    this.secrets = [];
    this.outcome = '';
    this.failure = null;
  }

  /** Reads the form and clears its value field at once: the value leaves the page with the request. */
  private take(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    form.reset();
    const field = (name: string) => String(data.get(name) ?? '').trim();
    const minutes = Number(field('minutes'));
    return { field, value: String(data.get('value') ?? ''), ...(minutes > 0 && { expiresAt: Date.now() + minutes * 60_000 }) };
  }

  private async answer(event: SubmitEvent, request: PendingRequest) {
    const { field, value, ...expiry } = this.take(event);
    this.outcome = '';
    this.failure = null;
    try {
      if (request.kind === 'value') {
        const { state } = await this.page.request('put', { name: request.name!, value, request: request.id });
        this.outcome = `${request.name} answered; it is ${state}.`;
      } else if (request.kind === 'oauth') {
        // The sign-in's access token: a model key is bound to the provider it signed in to.
        const kind = field('kind') as RecordKind;
        const name = field('name');
        await this.page.request('seal', {
          name,
          value,
          kind,
          source: `oauth:${request.provider!}`,
          ...(kind === 'model' && { provider: request.provider! }),
          ...(request.account && { account: request.account }),
          ...expiry,
        });
        this.outcome = `Signed in to ${request.provider}: ${name} sealed.`;
      } else {
        const record = this.secrets.find((s) => s.name === request.name);
        await this.page.request('seal', {
          name: request.name!,
          value,
          kind: record?.kind ?? 'secret',
          source: `oauth:${request.provider!}`,
          ...(record?.provider && { provider: record.provider }),
          ...(record?.account && { account: record.account }),
          ...expiry,
        });
        this.outcome = `${request.name} renewed; its placeholder stays.`;
      }
    } catch (error) {
      this.failure = error;
    }
  }

  private async cancel(request: PendingRequest) {
    this.outcome = '';
    this.failure = null;
    try {
      await this.page.request('cancel', { request: request.id });
      this.outcome = `${title(request)}: cancelled.`;
    } catch (error) {
      this.failure = error;
    }
  }

  private valueField(label: string) {
    return html`<label class="grow">${label}<input name="value" type="password" autocomplete="off" required minlength="8" /></label>`;
  }

  private expiryField() {
    return html`<label>expires in (minutes)<input name="minutes" type="number" min="1" placeholder="never" /></label>`;
  }

  private fields(r: PendingRequest) {
    switch (r.kind) {
      case 'value':
        return html`${this.valueField(`Value for ${r.name}`)}${button('Answer')}`;
      case 'oauth':
        return html`<label>Name<input name="name" required maxlength="128" value=${`${r.provider!.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_TOKEN`} autocomplete="off" /></label>
          <label>Kind<select name="kind"><option value="secret">secret</option><option value="model">model</option></select></label>
          ${this.valueField('Access token')}${this.expiryField()}${button('Seal the sign-in')}`;
      case 'refresh':
        return html`${this.valueField(`New value for ${r.name}`)}${this.expiryField()}${button('Renew')}`;
      case 'backup':
      case 'restore':
        return html`<span class="muted">Finish it in the vault's popup: click the lock button, which shows <em>waiting</em>. Or cancel it here.</span>`;
      default:
        return html`<span class="muted">
          The key comes from your other device: send it from there and it is sealed here when it arrives. If you didn't ask for it, cancel it.
        </span>`;
    }
  }

  private told() {
    return this.outcome ? html`<p class="ok">${this.outcome}</p>` : problem(this.failure);
  }

  override render() {
    if (!this.waiting.length) return html`<p class="muted">No request waits for you.</p>${this.told()}`;
    return html`
      ${this.waiting.map(
        (r) => html`<div class="warn" data-request=${r.id} data-kind=${r.kind}>
          <div>
            <strong>${title(r)}</strong>
            <span class="muted">asked by ${askedBy(r)}, expires ${time(r.expiresAt, true)}</span>
          </div>
          ${r.prompt ? html`<div>The program says (untrusted): <q>${r.prompt}</q></div>` : ''}
          ${r.scopes?.length || r.account ? html`<div>It asks (untrusted) for ${r.scopes?.length ? `the scopes ${r.scopes.join(', ')}` : ''}${r.account ? ` as ${r.account}` : ''}.</div>` : ''}
          <form class="row" @submit=${(e: SubmitEvent) => this.answer(e, r)}>
            ${this.fields(r)}
            ${button('Cancel request', 'secondary', 'button', () => this.cancel(r))}
          </form>
        </div>`,
      )}
      ${this.told()}
    `;
  }
}

customElements.define('demo-pending', PendingRequests);
