import { VaultButton } from './VaultButton.ts';

customElements.define('vault-button', VaultButton);

declare global {
  interface HTMLElementTagNameMap {
    'vault-button': VaultButton;
  }
}
