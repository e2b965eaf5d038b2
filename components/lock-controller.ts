// The popup's link to the lock (README, Key store and lock: the popup): the key ring of this document, the key slots,
// and what the person asked for. It keeps the screen and the outcome in plain words; the element
// renders them and forwards the person's intents. No value or passphrase is ever kept or shown.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AutoLockMs, LockState } from '../src/contract.ts';
import { AutoLock, type KeyRing, Lock, LockError, type Proof } from '../src/lock/index.ts';
import { MIN_PASSPHRASE_LENGTH } from '../src/limits.ts';
import { newPassphraseProblem } from '../src/validate.ts';
import type { PopupWorld } from './popup-world.ts';
import type { Scale, Theme } from './spectrum.ts';

export type Screen =
  | 'loading'
  | 'broken'
  /** No lock: auto-unlock explained, lock with a passkey or a passphrase. */
  | 'auto'
  | 'set-passphrase'
  | 'locked'
  /** Unlocked with a lock: lock now, add the other kind, change the passphrase, remove the lock. */
  | 'unlocked'
  | 'add-passkey'
  | 'change-passphrase'
  | 'remove';

export interface Outcome {
  kind: 'success' | 'error';
  text: string;
}

export interface PopupState {
  screen: Screen;
  lock: LockState;
  busy: boolean;
  outcome: Outcome | null;
  namespace: string | null;
  theme: Theme;
  scale: Scale;
}

/** What the element may ask for. Passphrases pass through, they are never stored here. */
export interface PopupIntents {
  go(screen: Screen): void;
  unlock(proof: Proof): Promise<void>;
  lockNow(): Promise<void>;
  setPassphrase(passphrase: string, again: string, proof?: Proof): Promise<void>;
  addPasskey(proof?: Proof): Promise<void>;
  removeLock(proof: Proof): Promise<void>;
  /** Auto-lock's idle time (README, Key store and lock): one of AUTO_LOCK_CHOICES, or `null` for never. */
  setAutoLock(afterMs: AutoLockMs | null): Promise<void>;
  /** The person pressed or typed in the popup: a use, for auto-lock. */
  touch(): void;
}

export type PopupModel = PopupIntents & { readonly state: PopupState };

/** An idle time in words: "15 minutes", "1 hour", "4 hours". */
export function autoLockText(ms: AutoLockMs): string {
  const minutes = ms / 60_000;
  if (minutes < 60) return `${minutes} minutes`;
  const hours = minutes / 60;
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

const plain = (text: string) => text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? '' : '.');

export function initialState(location: Location | URL = window.location): PopupState {
  const params = new URLSearchParams(location.search);
  const theme = params.get('theme') ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  return {
    screen: 'loading',
    lock: null,
    busy: false,
    outcome: null,
    namespace: params.get('namespace'),
    theme: theme === 'dark' ? 'dark' : 'light',
    scale: params.get('scale') === 'large' ? 'large' : 'medium',
  };
}

export class LockController implements ReactiveController, PopupModel {
  state: PopupState;
  private lock?: Lock;
  private ring?: KeyRing;
  private autoLock?: AutoLock;
  /** What `start` took hold of, released on disconnect (the world itself is the popup's). */
  private release: (() => void)[] = [];
  private disconnected = false;
  /** Opened by the button to unlock: it closes itself once unlocked. */
  private readonly closeAfterUnlock: boolean;
  /** Whether another part of the popup (a backup the page asked for) keeps it open after unlocking. */
  keepOpen: () => boolean = () => false;
  /** How the document goes away once unlocked: the popup closes its window; the panel asks its page. */
  close: () => void = () => this.win.close();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly world: PopupWorld,
    private readonly win: Window = window,
  ) {
    this.state = initialState(win.location);
    this.closeAfterUnlock = new URLSearchParams(win.location.search).get('intent') === 'unlock';
    host.addController(this);
  }

  hostConnected() {
    this.disconnected = false;
    void this.start();
  }

  /** Lets go of the world's key ring and bus, and stops auto-lock's timer, even mid-start. */
  hostDisconnected() {
    this.disconnected = true;
    for (const undo of this.release.splice(0)) undo();
  }

  go(screen: Screen) {
    this.set({ screen, outcome: null });
  }

  touch() {
    void this.autoLock?.used();
  }

  setAutoLock(afterMs: AutoLockMs | null) {
    return this.act(async () => {
      await this.lock!.setAutoLock(afterMs);
      await this.autoLock?.arm();
      const text = afterMs === null ? 'The vault stays unlocked until you lock it.' : `The vault locks by itself after ${autoLockText(afterMs)} without use.`;
      this.set({ outcome: { kind: 'success', text } });
    });
  }

  unlock(proof: Proof) {
    return this.act(async () => {
      await this.give(await this.lock!.unlock(proof));
      this.set({ screen: 'unlocked', outcome: { kind: 'success', text: 'Unlocked. Every SLICC window of this browser can use the vault now.' } });
      // The key went out on the channel before this; a moment lets the screen be read before it goes.
      if (this.closeAfterUnlock && !this.keepOpen()) setTimeout(() => this.close(), 600);
    });
  }

  lockNow() {
    return this.act(async () => {
      await this.ring!.lock();
      this.set({ screen: 'locked', outcome: { kind: 'success', text: 'Locked. Every SLICC window of this browser needs the passkey or passphrase again.' } });
    });
  }

  setPassphrase(passphrase: string, again: string, proof?: Proof) {
    return this.act(async () => {
      const problem = newPassphraseProblem(passphrase, again, MIN_PASSPHRASE_LENGTH);
      if (problem === 'short') throw new LockError('weak-passphrase', `a passphrase needs at least ${MIN_PASSPHRASE_LENGTH} characters`);
      if (problem === 'mismatch') throw new LockError('mismatch', "the two passphrases aren't the same; nothing changed");
      const had = this.state.lock;
      const fresh = await this.lock!.setPassphrase(passphrase, proof);
      if (fresh) await this.give(fresh);
      const text = had?.passphrase
        ? 'The passphrase is changed. The old one no longer unlocks the vault.'
        : had
          ? 'The passphrase is added. Either the passkey or the passphrase unlocks the vault.'
          : 'Done: from now on the vault opens only with this passphrase. It stays open until you lock it; forget the passphrase, and the secrets are lost.';
      this.set({ screen: 'unlocked', outcome: { kind: 'success', text } });
    });
  }

  addPasskey(proof?: Proof) {
    return this.act(async () => {
      const had = this.state.lock;
      const fresh = await this.lock!.setPasskey(proof);
      if (fresh) await this.give(fresh);
      const text = had
        ? 'The passkey is added. Either the passkey or the passphrase unlocks the vault.'
        : 'Done: from now on the vault opens only with your passkey. It stays open until you lock it.';
      this.set({ screen: 'unlocked', outcome: { kind: 'success', text } });
    });
  }

  removeLock(proof: Proof) {
    return this.act(async () => {
      await this.give(await this.lock!.removeLock(proof));
      this.set({ screen: 'auto', outcome: { kind: 'success', text: 'The lock is removed. The vault opens by itself again in this browser.' } });
    });
  }

  /** Hands a key to every vault document; one the vault refuses (not its key now) is an error. */
  private async give(key: CryptoKey) {
    if (!(await this.ring!.give(key))) throw new LockError('busy', 'the vault was locked or changed meanwhile; nothing was unlocked. Try again');
  }

  private async start() {
    try {
      const { config, db, ring, bus } = await this.world.ready();
      if (this.disconnected) return;
      this.lock = new Lock(db, { iterations: config.passphraseIterations, rpName: config.name });
      this.ring = ring;
      const autoLock = new AutoLock(db, ring);
      this.autoLock = autoLock;
      // Another popup may set or remove a lock, or change auto-lock: the vault's bus says so.
      const onBus = () => {
        void autoLock.arm();
        void this.refresh();
      };
      bus.addEventListener('message', onBus);
      this.release.push(
        ring.onChange(() => this.refresh()),
        () => autoLock.close(),
        () => bus.removeEventListener('message', onBus),
      );
      await this.refresh();
    } catch (error) {
      console.error(`slicc-vault: the lock popup could not start: ${(error as Error).message}`);
      this.set({ screen: 'broken', outcome: { kind: 'error', text: "The vault couldn't start here. Close this window and try again." } });
    }
  }

  /** Follows the lock and key as they are now, keeping a form open while it still applies. */
  private async refresh() {
    if (this.ring!.keyLost) {
      // README, Key store and lock: records exist but no slot is left; never a new key.
      const text = "The vault's key is gone: secrets are stored here, but no key is left to open them. Nothing new is written until it is restored.";
      this.set({ screen: 'broken', outcome: { kind: 'error', text } });
      return;
    }
    const lock = await this.lock!.state();
    const unlocked = this.ring!.key !== null;
    const base: Screen = !lock ? 'auto' : unlocked ? 'unlocked' : 'locked';
    const forms: Record<Screen, Screen[]> = {
      auto: ['set-passphrase'],
      unlocked: ['set-passphrase', 'add-passkey', 'change-passphrase', 'remove'],
      locked: [],
      loading: [],
      broken: [],
      'set-passphrase': [],
      'add-passkey': [],
      'change-passphrase': [],
      remove: [],
    };
    const screen = forms[base].includes(this.state.screen) ? this.state.screen : base;
    this.set({ lock, screen });
  }

  private async act(work: () => Promise<void>) {
    if (this.state.busy) return;
    this.touch();
    this.set({ busy: true, outcome: null });
    try {
      await work();
    } catch (error) {
      const text = error instanceof LockError ? plain(error.message) : 'Something went wrong; nothing changed. Try again.';
      if (!(error instanceof LockError)) console.error(`slicc-vault: lock popup: ${(error as Error)?.name ?? 'error'}`);
      this.set({ outcome: { kind: 'error', text } });
    } finally {
      this.set({ busy: false });
      await this.refresh().catch(() => undefined);
    }
  }

  private set(patch: Partial<PopupState>) {
    this.state = { ...this.state, ...patch };
    this.host.requestUpdate();
  }
}
