// The lock button's link to the world (README, Key store and lock: the button): the embedder's hello, the namespace's
// availability from the vault frames, the `availability` message back, and opening the popup, or asking the
// embedder for the panel when its hello said `panel: true`.
// The element only renders what this sets on it and forwards the click.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Availability, ButtonAvailability, ButtonHello, ButtonPanel } from '../src/contract.ts';
import { MAX_HELD_HELLOS, POPUP_FOCUS_MS, POPUP_WORD_MS } from '../src/limits.ts';
import { AvailabilityWatcher, PopupWatch } from '../src/lock/index.ts';
import { loadSettings, originAllowed } from '../src/gateway/index.ts';
import type { Scale, Theme } from './spectrum.ts';

/** What the controller sets on its element. */
export interface ButtonView extends ReactiveControllerHost {
  availability: Availability;
  theme: Theme;
  scale: Scale;
  blocked: boolean;
  /** The popup of this namespace: none known, being opened (waiting for its word), or up. */
  popup: PopupShown;
  /** How many times a click brought the open popup forward instead of opening another. */
  forwarded: number;
  vaultName: string;
}

export type PopupShown = 'none' | 'opening' | 'open';

export const POPUP_NAME = 'slicc-vault-lock';
const POPUP_FEATURES = 'popup,width=420,height=640';

export class ButtonController implements ReactiveController {
  private namespace: string | null = null;
  /** The embedder's hello asked for the panel (README, Key store and lock: the panel). */
  private panel = false;
  private watcher: AvailabilityWatcher | null = null;
  private popups: PopupWatch | null = null;
  /** A click being answered (the popup's word awaited): further clicks wait for it. */
  private opening = false;
  private held: MessageEvent[] | null = [];
  private embedders: string[] = [];
  private readonly onMessage = (event: MessageEvent) => {
    if (!this.held) this.hello(event);
    // Until the settings are in, only the parent's messages wait, and only so many (README, Limits).
    else if (this.helloOrigin(event) !== null && this.held.length < MAX_HELD_HELLOS) this.held.push(event);
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
    this.popups?.close();
    this.popups = null;
  }

  /**
   * The click: brings the namespace's open popup forward, or opens one. `window.open` returning
   * null is a block or a popup without an opener (a cross-origin isolated embedder): the popup's
   * word within POPUP_WORD_MS tells them apart. A throw is a block (Firefox in a sandbox).
   */
  async open(): Promise<void> {
    if (this.panel && this.namespace) return this.askForPanel(this.namespace);
    if (this.opening) return;
    this.opening = true;
    try {
      const popups = this.popupWatch();
      if (popups.up && (await popups.focus(POPUP_FOCUS_MS))) {
        this.host.forwarded += 1;
        return;
      }
      const params = this.screenParams();
      // Not `noopener`: that makes window.open return null always, and a block couldn't be told apart.
      const opened = this.tryOpen(`/popup.html?${params}`);
      if (opened === 'refused') return this.showBlocked(true);
      this.host.blocked = false;
      if (opened) return;
      this.host.popup = popups.up ? 'open' : 'opening';
      const heard = popups.up || (await popups.heard(POPUP_WORD_MS));
      this.showBlocked(!heard && !popups.up);
    } finally {
      this.opening = false;
    }
  }

  /** The namespace, the look and the screen a popup or panel opens with, as its URL's query. */
  private screenParams(): URLSearchParams {
    const params = new URLSearchParams({ theme: this.host.theme, scale: this.host.scale });
    if (this.namespace) params.set('namespace', this.namespace);
    if (this.host.availability === 'locked') params.set('intent', 'unlock');
    return params;
  }

  /** A click with the panel asked for: the embedder shows `panel.html` (again: it keeps one); no popup opens. */
  private askForPanel(namespace: string) {
    const url = `${this.win.location.origin}/panel.html?${this.screenParams()}`;
    const message: ButtonPanel = { type: 'slicc-vault-button', v: 1, op: 'panel', url };
    this.win.parent.postMessage(message, namespace);
  }

  /** The watch of this namespace's popups (or of those opened before any hello), made on first use. */
  private popupWatch(): PopupWatch {
    const namespace = this.namespace ?? '';
    if (this.popups?.namespace !== namespace) {
      this.popups?.close();
      this.popups = new PopupWatch(namespace, (up) => {
        // A popup that is up was not blocked, however late it said so.
        if (up) this.host.blocked = false;
        if (up || !this.opening) this.host.popup = up ? 'open' : 'none';
      });
    }
    return this.popups;
  }

  private showBlocked(blocked: boolean) {
    this.host.blocked = blocked;
    if (blocked) this.host.popup = 'none';
  }

  /**
   * `window.open`: the popup's window, `null` (a blocker, a frame sandboxed without `allow-popups` in
   * Chromium, or a popup opened without an opener), or `refused` when it throws, as Firefox does in a
   * frame sandboxed without `allow-popups`
   * (README, Key store and lock: the button): the throw is a block for certain.
   */
  private tryOpen(url: string): Window | null | 'refused' {
    try {
      return this.win.open(url, POPUP_NAME, POPUP_FEATURES);
    } catch {
      return 'refused';
    }
  }

  /**
   * The origin a message speaks for as a hello: the parent's. WebKit hands a hello that a cross-origin
   * isolated embedder posts from its button frame's load handler over as this window's own message
   * (source this window, origin the vault's; measured in WebKitGTK 2.50): nothing but the vault's
   * origin can post one, so it speaks for the parent the browser names (`ancestorOrigins`). A hello
   * grants the button's availability to that origin, nothing more.
   */
  private helloOrigin(event: MessageEvent): string | null {
    if (event.source === this.win.parent) return event.origin;
    if (event.source === this.win && event.origin === this.win.location.origin) return this.win.location.ancestorOrigins?.[0] ?? null;
    return null;
  }

  /** The embedder's message: the same checks as the frame's hello. */
  private hello(event: MessageEvent) {
    const data = event.data as Partial<ButtonHello> | null;
    if (!data || typeof data !== 'object' || data.type !== 'slicc-vault-button' || data.v !== 1) return;
    const origin = this.helloOrigin(event);
    if (origin === null || !originAllowed(origin, this.embedders)) return;
    const ancestor = this.win.location.ancestorOrigins?.[0];
    if (ancestor !== undefined && ancestor !== origin) return;
    if (data.theme === 'light' || data.theme === 'dark') this.host.theme = data.theme;
    if (data.scale === 'medium' || data.scale === 'large') this.host.scale = data.scale;
    this.panel = data.panel === true;
    if (this.namespace === origin) return this.show(this.host.availability);
    this.namespace = origin;
    this.popupWatch();
    this.watcher?.close();
    this.watcher = new AvailabilityWatcher(origin, (availability) => this.show(availability));
    this.show(this.watcher.availability);
  }

  private show(availability: Availability) {
    this.host.availability = availability;
    const message: ButtonAvailability = { type: 'slicc-vault-button', v: 1, availability };
    this.win.parent.postMessage(message, this.namespace!);
  }
}
