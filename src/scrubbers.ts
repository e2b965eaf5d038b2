// The compiled scrubbers of this document, one per namespace (README, Scrub state): compiled
// whenever the document holds the key and the namespace's set of values changed, and kept for the
// document's life, so locking stops value use but never scrubbing.
import type { ScrubHit } from './contract.ts';
import type { Records } from './records.ts';
import { type Scrubber, compileScrubber } from './scrubber.ts';

export interface Compiled {
  version: number;
  scrubber: Scrubber;
}

export class Scrubbers {
  private readonly compiled = new Map<string, Compiled>();
  private readonly pending = new Map<string, Promise<Compiled | undefined>>();

  constructor(private readonly records: Records) {}

  /** The newest scrubber compiled for the namespace, whatever its version. */
  get(namespace: string): Compiled | undefined {
    return this.compiled.get(namespace);
  }

  /**
   * Compiles the namespace's scrubber when `key` is there and the values changed since the last
   * compile; answers the newest scrubber there is. One compile per namespace at a time.
   */
  async refresh(namespace: string, key: CryptoKey | null): Promise<Compiled | undefined> {
    const running = this.pending.get(namespace);
    if (running) await running;
    const { scrubVersion } = await this.records.meta(namespace);
    const current = this.compiled.get(namespace);
    if (!key || current?.version === scrubVersion) return current;
    const work = (async () => {
      const values = await this.records.values(namespace, key);
      const compiled = { version: scrubVersion, scrubber: compileScrubber(values) };
      const newest = this.compiled.get(namespace);
      if (!newest || newest.version <= compiled.version) this.compiled.set(namespace, compiled);
      return this.compiled.get(namespace);
    })();
    this.pending.set(namespace, work);
    try {
      return await work;
    } finally {
      this.pending.delete(namespace);
    }
  }

  /** Every namespace with a compiled scrubber, to recompile after an unlock. */
  namespaces(): string[] {
    return [...this.compiled.keys()];
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
