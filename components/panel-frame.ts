// The panel's hold on its frame (README, Key store and lock: the panel): the namespace it serves,
// checked against the page that frames it; its close message to that page; and what it trusts.
// It acts only on the person's own clicks and key presses, and, where the engine can tell
// (IntersectionObserver v2, Chromium), takes no input while something covers it. It takes no
// message at all: a passphrase, a value or a decision never arrives by postMessage.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PanelClose } from '../src/contract.ts';
import type { Guard } from './popup-parts.ts';

/** IntersectionObserver v2's options: not in TypeScript's DOM types yet. */
interface VisibilityOptions extends IntersectionObserverInit {
  trackVisibility: boolean;
  delay: number;
}

/** Whether this engine reports covering (IntersectionObserver v2's `isVisible`): Chromium only. */
export const COVER_CHECKED = typeof IntersectionObserverEntry !== 'undefined' && 'isVisible' in IntersectionObserverEntry.prototype;

/** The shortest delay IntersectionObserver v2 takes with `trackVisibility`. */
const VISIBILITY_DELAY_MS = 100;

export class PanelFrame implements ReactiveController, Guard {
  /**
   * The namespace (`?namespace=`), or null when the page framing the panel is of another origin
   * (where the engine names it: `location.ancestorOrigins`, not in Firefox).
   */
  readonly site: string | null;
  /** Something covers the panel (Chromium), or it wasn't seen uncovered yet: input is refused. */
  covered = COVER_CHECKED;
  /** The engine said whether the panel is covered at least once. */
  seen = false;
  private observer: IntersectionObserver | null = null;
  /** The click or key press being handled now is the person's (reset after its task). */
  private inputNow = false;

  private readonly onInput = (event: Event) => {
    this.inputNow = event.isTrusted;
    setTimeout(() => {
      this.inputNow = false;
    });
  };

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly win: Window = window,
  ) {
    const namespace = new URLSearchParams(win.location.search).get('namespace');
    const ancestor = win.location.ancestorOrigins?.[0];
    this.site = namespace !== null && (ancestor === undefined || ancestor === namespace) ? namespace : null;
    host.addController(this);
  }

  hostConnected() {
    for (const type of ['click', 'keydown', 'keypress']) this.host.addEventListener(type, this.onInput, { capture: true });
    if (COVER_CHECKED) {
      const options: VisibilityOptions = { trackVisibility: true, delay: VISIBILITY_DELAY_MS, threshold: [0, 1] };
      this.observer = new IntersectionObserver((entries) => {
        const entry = entries.at(-1) as (IntersectionObserverEntry & { isVisible: boolean }) | undefined;
        if (!entry || (this.seen && entry.isVisible === !this.covered)) return;
        this.seen = true;
        this.covered = !entry.isVisible;
        this.host.requestUpdate();
      }, options);
      this.observer.observe(this.host);
    }
  }

  hostDisconnected() {
    for (const type of ['click', 'keydown', 'keypress']) this.host.removeEventListener(type, this.onInput, { capture: true });
    this.observer?.disconnect();
    this.observer = null;
  }

  /**
   * The person's own input: a trusted click, change or drop; a form submitted by a trusted click or
   * key press (a submit event is trusted even when a script's `click()` or `requestSubmit()` caused it).
   */
  trusted(event: Event): boolean {
    return event.isTrusted && (event.type !== 'submit' || this.inputNow);
  }

  /** Asks the page that frames the panel to remove it. */
  close() {
    const message: PanelClose = { type: 'slicc-vault-panel', v: 1, op: 'close' };
    // Nothing secret in it: a page of another origin (no checked site) may be told too.
    this.win.parent.postMessage(message, this.site ?? '*');
  }
}
