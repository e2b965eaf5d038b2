// The popup saying it is up (README, Key store and lock: the button): a beacon for the namespace the
// button opened it for, from connection to disconnection, so the button tells a popup opened without
// an opener from a blocked one and brings this one forward instead of opening a second.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PopupBeacon } from '../src/lock/index.ts';

export class PopupPresence implements ReactiveController {
  private beacon: PopupBeacon | null = null;

  constructor(
    host: ReactiveControllerHost,
    private readonly win: Window = window,
  ) {
    host.addController(this);
  }

  hostConnected() {
    this.beacon ??= new PopupBeacon(new URLSearchParams(this.win.location.search).get('namespace') ?? '', this.win);
  }

  hostDisconnected() {
    this.beacon?.close();
    this.beacon = null;
  }
}
