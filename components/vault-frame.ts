import { VaultFrame } from './VaultFrame.ts';

customElements.define('vault-frame', VaultFrame);

declare global {
  interface HTMLElementTagNameMap {
    'vault-frame': VaultFrame;
  }
}
