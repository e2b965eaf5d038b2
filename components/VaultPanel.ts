import { VaultPopup } from './VaultPopup.ts';

/**
 * The panel (panel.html): the popup's screens in a frame the embedder shows (README, Key store and
 * lock: the panel), with a close control on every screen and the guard of components/panel-frame.ts.
 */
export class VaultPanel extends VaultPopup {
  static override framed = true;
}
