import { VaultPanel } from './VaultPanel.ts';

customElements.define('vault-panel', VaultPanel);

declare global {
  interface HTMLElementTagNameMap {
    'vault-panel': VaultPanel;
  }
}
