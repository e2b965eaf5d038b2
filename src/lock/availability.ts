// A namespace's availability for its lock button (README, Key store and lock: the button): the vault frames of the
// origin tell the buttons over a BroadcastChannel, and a button asks when it starts. A frame
// speaks only for the namespaces it has page ports of; without one, the button shows `connecting`.
import type { Availability, VaultStatus } from '../contract.ts';

export const AVAILABILITY_CHANNEL = 'slicc-vault-availability';

export type AvailabilityMessage =
  | { type: 'ask'; namespace: string }
  | { type: 'availability'; namespace: string; from: string; availability: Availability }
  | { type: 'gone'; from: string };

/** Locked comes first: nothing else can be done for the person until the vault is unlocked. */
export function availabilityOf(status: Pick<VaultStatus, 'locked' | 'waiting'>): Availability {
  if (status.locked) return 'locked';
  return status.waiting.length > 0 ? 'waiting' : 'ready';
}

/** What the broadcaster needs of the frame's vault and gateway. */
export interface AvailabilitySource {
  status(namespace: string): Promise<Pick<VaultStatus, 'locked' | 'waiting'>>;
  onChange(listener: (namespace: string | null, changes: string[]) => void | Promise<void>): () => void;
}
export interface NamespaceSource {
  namespaces(): string[];
}

/** The frame's side: announces its namespaces' availability whenever it may have changed. */
export class AvailabilityBroadcaster {
  readonly id = crypto.randomUUID();
  private readonly channel = new BroadcastChannel(AVAILABILITY_CHANNEL);
  private readonly sent = new Map<string, Availability>();
  private readonly stopWatching: () => void;
  private readonly onPageHide = () => this.channel.postMessage({ type: 'gone', from: this.id } satisfies AvailabilityMessage);

  constructor(
    private readonly vault: AvailabilitySource,
    private readonly gateway: NamespaceSource,
    private readonly win: Window = window,
  ) {
    this.channel.onmessage = ({ data }: MessageEvent<AvailabilityMessage>) => {
      if (data?.type === 'ask' && this.gateway.namespaces().includes(data.namespace)) void this.announce(data.namespace, true);
    };
    this.stopWatching = vault.onChange((namespace, changes) => (changes.includes('status') ? this.refresh(namespace) : undefined));
    win.addEventListener('pagehide', this.onPageHide);
  }

  /** Announces each namespace (or just `only`) whose availability differs from what was said. */
  async refresh(only: string | null = null): Promise<void> {
    for (const namespace of this.gateway.namespaces()) {
      if (only === null || only === namespace) await this.announce(namespace, false);
    }
  }

  stop() {
    this.onPageHide();
    this.stopWatching();
    this.win.removeEventListener('pagehide', this.onPageHide);
    this.channel.close();
  }

  private async announce(namespace: string, always: boolean) {
    const availability = availabilityOf(await this.vault.status(namespace));
    if (!always && this.sent.get(namespace) === availability) return;
    this.sent.set(namespace, availability);
    this.channel.postMessage({ type: 'availability', namespace, from: this.id, availability } satisfies AvailabilityMessage);
  }
}

/**
 * The button's side: the namespace's availability as the frames last said it. Frames of one
 * origin share the key and the requests, so they agree; the newest word counts, and when the last
 * frame goes away it is `connecting` again.
 */
export class AvailabilityWatcher {
  private readonly channel = new BroadcastChannel(AVAILABILITY_CHANNEL);
  /** Each frame's last word, in the order they arrived. */
  private readonly frames = new Map<string, Availability>();
  private last: Availability = 'connecting';

  constructor(
    readonly namespace: string,
    private readonly onChange: (availability: Availability) => void,
  ) {
    this.channel.onmessage = ({ data }: MessageEvent<AvailabilityMessage>) => this.receive(data);
    this.channel.postMessage({ type: 'ask', namespace } satisfies AvailabilityMessage);
  }

  get availability(): Availability {
    return this.last;
  }

  close() {
    this.channel.close();
  }

  private receive(message: AvailabilityMessage) {
    if (message?.type === 'availability' && message.namespace === this.namespace) {
      this.frames.delete(message.from);
      this.frames.set(message.from, message.availability);
    } else if (message?.type === 'gone') {
      this.frames.delete(message.from);
    } else return;
    const next = [...this.frames.values()].at(-1) ?? 'connecting';
    if (next === this.last) return;
    this.last = next;
    this.onChange(next);
  }
}
