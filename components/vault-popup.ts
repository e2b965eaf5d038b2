import { VaultPopup } from './VaultPopup.ts';

customElements.define('vault-popup', VaultPopup);

declare global {
  interface HTMLElementTagNameMap {
    'vault-popup': VaultPopup;
  }
}
