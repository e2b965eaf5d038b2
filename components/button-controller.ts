// The lock button's link to the world (README, Key store and lock: the button): the embedder's hello, the namespace's
// availability from the vault frames, the `availability` message back, and opening the popup.
// The element only renders what this sets on it and forwards the click.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Availability, ButtonAvailability, ButtonHello } from '../src/contract.ts';
import { AvailabilityWatcher } from '../src/lock/index.ts';
import { MAX_HELD_HELLOS } from '../src/limits.ts';
import { loadSettings, originAllowed } from '../src/gateway/index.ts';
import type { Scale, Theme } from './spectrum.ts';

/** What the controller sets on its element. */
export interface ButtonView extends ReactiveControllerHost {
  availability: Availability;
  theme: Theme;
  scale: Scale;
  blocked: boolean;
  vaultName: string;
}

export const POPUP_NAME = 'slicc-vault-lock';
const POPUP_FEATURES = 'popup,width=420,height=640';

export class ButtonController implements ReactiveController {
  private namespace: string | null = null;
  private watcher: AvailabilityWatcher | null = null;
  private held: MessageEvent[] | null = [];
  private embedders: string[] = [];
  private readonly onMessage = (event: MessageEvent) => {
    if (!this.held) this.hello(event);
    // Until the settings are in, only the parent's messages wait, and only so many (README, Limits).
    else if (event.source === this.win.parent && this.held.length < MAX_HELD_HELLOS) this.held.push(event);
  };

  constructor(
    private readonly host: ButtonView,
    private readonly win: Window = window,
  ) {
    host.addController(this);
  }

  hostConnected() {
    // The button works only embedded: there is no embedder to speak to at the top level.
    if (this.win.parent === this.win) return;
    this.win.addEventListener('message', this.onMessage);
    void loadSettings(this.win.location.origin).then(
      ({ config, embedders }) => {
        this.host.vaultName = config.name;
        this.embedders = embedders;
        const held = this.held ?? [];
        this.held = null;
        for (const event of held) this.hello(event);
      },
      (error: Error) => {
        this.held = null;
        console.error(`slicc-vault: the button answers nobody: ${error.message}`);
      },
    );
  }

  hostDisconnected() {
    this.win.removeEventListener('message', this.onMessage);
    this.watcher?.close();
    this.watcher = null;
  }

  /** The click: opens the popup for this namespace, or shows that the browser blocked it. */
  open() {
    const params = new URLSearchParams({ theme: this.host.theme, scale: this.host.scale });
    if (this.namespace) params.set('namespace', this.namespace);
    if (this.host.availability === 'locked') params.set('intent', 'unlock');
    // Not `noopener`: that makes window.open return null always, and a block couldn't be told apart.
    this.host.blocked = this.tryOpen(`/popup.html?${params}`) === null;
  }

  /**
   * `window.open`, or `null` when the browser refused. A blocker makes it return `null`; in a frame
   * sandboxed without `allow-popups`, Chromium returns `null` and Firefox throws `InvalidAccessError`
   * (README, Key store and lock: the button): both are a block the person must see.
   */
  private tryOpen(url: string): Window | null {
    try {
      return this.win.open(url, POPUP_NAME, POPUP_FEATURES);
    } catch {
      return null;
    }
  }

  /** The embedder's message: the same checks as the frame's hello. */
  private hello(event: MessageEvent) {
    const data = event.data as Partial<ButtonHello> | null;
    if (!data || typeof data !== 'object' || data.type !== 'slicc-vault-button' || data.v !== 1) return;
    if (event.source !== this.win.parent || !originAllowed(event.origin, this.embedders)) return;
    const ancestor = this.win.location.ancestorOrigins?.[0];
    if (ancestor !== undefined && ancestor !== event.origin) return;
    if (data.theme === 'light' || data.theme === 'dark') this.host.theme = data.theme;
    if (data.scale === 'medium' || data.scale === 'large') this.host.scale = data.scale;
    if (this.namespace === event.origin) return this.show(this.host.availability);
    this.namespace = event.origin;
    this.watcher?.close();
    this.watcher = new AvailabilityWatcher(event.origin, (availability) => this.show(availability));
    this.show(this.watcher.availability);
  }

  private show(availability: Availability) {
    this.host.availability = availability;
    const message: ButtonAvailability = { type: 'slicc-vault-button', v: 1, availability };
    this.win.parent.postMessage(message, this.namespace!);
  }
}
