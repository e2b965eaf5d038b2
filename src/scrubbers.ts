// The compiled scrubbers of this document, one per namespace (README, Scrub state): compiled
// whenever the document holds the key and the namespace's set of values changed, and kept for the
// document's life, so locking stops value use but never scrubbing.
import type { ScrubHit } from './contract.ts';
import type { HeldKey } from './keys.ts';
import type { Records } from './records.ts';
import { type Scrubber, compileScrubber } from './scrubber.ts';

export interface Compiled {
  version: number;
  scrubber: Scrubber;
}

export class Scrubbers {
  private readonly compiled = new Map<string, Compiled>();
  /** Per namespace, the compiles asked for, run one after the other. */
  private readonly queue = new Map<string, Promise<unknown>>();

  constructor(
    private readonly records: Records,
    private readonly key: () => HeldKey | null,
    /** Told when a compile found a record newly unreadable (marked and audited). */
    private readonly found: (namespace: string) => void = () => undefined,
  ) {}

  /** The newest scrubber compiled for the namespace, whatever its version. */
  get(namespace: string): Compiled | undefined {
    return this.compiled.get(namespace);
  }

  /**
   * Compiles the namespace's scrubber when the key is there and the values changed since the last
   * compile, and answers the newest scrubber there is. Calls queue per namespace; a call whose
   * turn comes when the scrubber is already current costs one read.
   */
  refresh(namespace: string): Promise<Compiled | undefined> {
    const turn = (this.queue.get(namespace) ?? Promise.resolve()).then(() => this.compileIfStale(namespace));
    const settled = turn.catch(() => undefined);
    this.queue.set(namespace, settled);
    void settled.then(() => this.queue.get(namespace) === settled && this.queue.delete(namespace));
    return turn;
  }

  private async compileIfStale(namespace: string): Promise<Compiled | undefined> {
    const { scrubVersion } = await this.records.meta(namespace);
    const current = this.compiled.get(namespace);
    const held = this.key();
    if (!held || current?.version === scrubVersion) return current;
    // An unreadable record is skipped, marked and audited; the rest of the namespace is scrubbed.
    const { values, unreadable } = await this.records.values(namespace, held.key);
    if (unreadable.length > 0 && (await this.records.markUnreadable(namespace, held, unreadable))) this.found(namespace);
    const compiled = { version: scrubVersion, scrubber: compileScrubber(values) };
    this.compiled.set(namespace, compiled);
    return compiled;
  }
}

/** Adds hits into a running total per `{ name, form }`. */
export function addHits(total: ScrubHit[], hits: readonly ScrubHit[]): ScrubHit[] {
  for (const hit of hits) {
    const same = total.find((t) => t.name === hit.name && t.form === hit.form);
    if (same) same.count += hit.count;
    else total.push({ ...hit });
  }
  return total;
}
