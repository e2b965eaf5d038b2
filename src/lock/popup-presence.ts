// Whether a lock popup of a namespace is up (README, Key store and lock: the button). In a cross-origin
// isolated embedder (COOP same-origin, COEP require-corp, as bios is) a popup opened from the
// button's frame gets no opener: `window.open` returns null, as it does for a real block, and a
// second `window.open` of the same name opens a second popup. So the popup says itself, over a
// BroadcastChannel of the vault origin, that it is up (once loaded, and when asked), and that it
// is gone (`pagehide`); it answers `focus` by coming forward. The button tells a block from a popup
// without an opener by that word, and never opens a second popup of a namespace while one is up.
// Never a value on this channel: namespaces and random ids only.

export const POPUP_CHANNEL = 'slicc-vault-popup';

export type PopupMessage =
  /** A popup: it is up (loaded, or answering `ask` or `focus`). */
  | { type: 'here'; namespace: string; id: string }
  | { type: 'gone'; namespace: string; id: string }
  /** A button: which popups of the namespace are up? */
  | { type: 'ask'; namespace: string }
  /** A button: the popup of the namespace comes forward (and says `here`). */
  | { type: 'focus'; namespace: string };

/** The popup's side: says it is up for its namespace, comes forward when asked, says when it goes. */
export class PopupBeacon {
  readonly id = crypto.randomUUID();
  private readonly channel = new BroadcastChannel(POPUP_CHANNEL);
  private readonly onPageHide = () => this.say('gone');

  constructor(
    readonly namespace: string,
    private readonly win: Window = window,
  ) {
    this.channel.onmessage = ({ data }: MessageEvent<PopupMessage>) => {
      if (data?.namespace !== this.namespace) return;
      if (data.type === 'focus') this.win.focus();
      if (data.type === 'focus' || data.type === 'ask') this.say('here');
    };
    win.addEventListener('pagehide', this.onPageHide);
    this.say('here');
  }

  close() {
    this.onPageHide();
    this.win.removeEventListener('pagehide', this.onPageHide);
    this.channel.close();
  }

  private say(type: 'here' | 'gone') {
    this.channel.postMessage({ type, namespace: this.namespace, id: this.id } satisfies PopupMessage);
  }
}

/** The button's side: the popups of its namespace that said they are up and haven't said they went. */
export class PopupWatch {
  private readonly channel = new BroadcastChannel(POPUP_CHANNEL);
  private readonly popups = new Set<string>();
  private readonly waiters = new Set<(heard: boolean) => void>();

  constructor(
    readonly namespace: string,
    private readonly onChange: (up: boolean) => void = () => undefined,
  ) {
    this.channel.onmessage = ({ data }: MessageEvent<PopupMessage>) => this.receive(data);
    this.channel.postMessage({ type: 'ask', namespace } satisfies PopupMessage);
  }

  /** Whether a popup of the namespace is up, as far as the channel said. */
  get up(): boolean {
    return this.popups.size > 0;
  }

  /** Resolves true as soon as a popup of the namespace says it is up, false after `ms` without a word. */
  heard(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (heard: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(heard);
      };
      const timer = setTimeout(() => done(false), ms);
      this.waiters.add(done);
    });
  }

  /**
   * Asks the open popup to come forward; true when it answered within `ms`. A popup that doesn't
   * answer is gone without having said so (closed by force, crashed): it is forgotten.
   */
  async focus(ms: number): Promise<boolean> {
    const answer = this.heard(ms);
    this.channel.postMessage({ type: 'focus', namespace: this.namespace } satisfies PopupMessage);
    if (await answer) return true;
    this.popups.clear();
    this.onChange(false);
    return false;
  }

  close() {
    this.channel.close();
    for (const done of [...this.waiters]) done(false);
  }

  private receive(message: PopupMessage) {
    if (message?.namespace !== this.namespace || typeof (message as { id?: unknown }).id !== 'string') return;
    const was = this.up;
    if (message.type === 'here') this.popups.add(message.id);
    else if (message.type === 'gone') this.popups.delete(message.id);
    else return;
    if (message.type === 'here') for (const done of [...this.waiters]) done(true);
    if (this.up !== was || message.type === 'here') this.onChange(this.up);
  }
}
