import { LitElement, nothing } from 'lit';
import { startVaultFrame, takeEarlyStart } from '../src/gateway/index.ts';

/** The invisible frame bios embeds: it hosts the gateway and renders nothing a person sees. */
export class VaultFrame extends LitElement {
  private frame?: ReturnType<typeof startVaultFrame>;

  override connectedCallback() {
    super.connectedCallback();
    this.frame ??= startVaultFrame(window, { early: takeEarlyStart() });
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.frame?.stop();
    this.frame = undefined;
  }

  override render() {
    return nothing;
  }
}
