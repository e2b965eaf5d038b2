import { LitElement, css, html } from 'lit';
import type { Availability } from '../src/contract.ts';
import { ButtonController, type PopupShown } from './button-controller.ts';
import { icons } from './icons.ts';
import { type Scale, type Theme, spectrumClass, spectrumSheets } from './spectrum.ts';

/** What the button says for each state: its accessible name, and its Spectrum variant. */
const LOOKS: Record<Availability | 'blocked', { says: string; variant: string }> = {
  connecting: { says: 'connecting', variant: 'secondary spectrum-Button--outline' },
  locked: { says: 'locked. Open the lock to unlock it', variant: 'accent spectrum-Button--fill' },
  waiting: { says: 'a request is waiting for you', variant: 'accent spectrum-Button--fill' },
  ready: { says: 'unlocked. Open the lock', variant: 'secondary spectrum-Button--fill' },
  blocked: { says: 'the browser blocked the lock window. Allow pop-ups for this site, then press again', variant: 'negative spectrum-Button--fill' },
};

/** The lock button (button.html): the namespace's availability as an icon button. */
export class VaultButton extends LitElement {
  static override properties = {
    availability: { type: String },
    theme: { type: String },
    scale: { type: String },
    blocked: { type: Boolean },
    popup: { type: String },
    forwarded: { type: Number },
    vaultName: { type: String, attribute: 'vault-name' },
  };
  static override styles = [
    ...spectrumSheets,
    css`
      :host {
        display: inline-block;
      }
      .spectrum {
        display: inline-flex;
        padding: var(--spectrum-spacing-75);
        background: transparent;
      }
      svg {
        inline-size: var(--spectrum-workflow-icon-size-100, 18px);
        block-size: var(--spectrum-workflow-icon-size-100, 18px);
        fill: currentColor;
      }
    `,
  ];

  declare availability: Availability;
  declare theme: Theme;
  declare scale: Scale;
  declare blocked: boolean;
  declare popup: PopupShown;
  declare forwarded: number;
  declare vaultName: string;
  readonly controller: ButtonController;

  constructor() {
    super();
    this.availability = 'connecting';
    this.theme = 'light';
    this.scale = 'medium';
    this.blocked = false;
    this.popup = 'none';
    this.forwarded = 0;
    this.vaultName = 'SLICC vault';
    this.controller = new ButtonController(this);
  }

  override render() {
    const state = this.blocked ? 'blocked' : this.availability;
    const { says, variant } = LOOKS[state];
    const label = `${this.vaultName}: ${says}`;
    return html`<div class=${spectrumClass(this.theme, this.scale)}>
      <button
        class="spectrum-Button spectrum-Button--sizeM spectrum-Button--iconOnly spectrum-Button--${variant}"
        aria-label=${label}
        title=${label}
        data-state=${state}
        data-popup=${this.popup}
        data-forwarded=${this.forwarded}
        @click=${() => void this.controller.open()}
      >
        <svg class="spectrum-Icon" viewBox="0 0 18 18" aria-hidden="true" focusable="false">${icons[state]}</svg>
      </button>
    </div>`;
  }
}
