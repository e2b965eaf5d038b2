// First: the settings' fetches and the database's open start before the rest of the bundle runs.
import '../src/gateway/boot.ts';
import { VaultFrame } from './VaultFrame.ts';

customElements.define('vault-frame', VaultFrame);

declare global {
  interface HTMLElementTagNameMap {
    'vault-frame': VaultFrame;
  }
}
