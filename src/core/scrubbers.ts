// The compiled scrubbers of this document, one per namespace (README, Scrub state): compiled
// whenever the document holds the key and the namespace's set of values changed, and kept for the
// document's life, so locking stops value use but never scrubbing.
import { AUDIT_BESIDE_BYTES, AUDIT_BESIDE_COMPILE, AUDIT_BESIDE_VALUES, utf8Length } from '../limits.ts';
import { type ScrubValue, type Scrubber, compileScrubber } from '../scrub/index.ts';
import { type HeldKey, type StoredRecord, WITHHELD, decryptValue } from '../store/index.ts';
import { type VaultWorker, vaultWorker } from '../worker/index.ts';

/** How long the values stay unchanged before a write's compile runs (README, Scrub state). */
export const COMPILE_AFTER_MS = 50;

export interface Compiled {
  version: number;
  scrubber: Scrubber;
}

export class Scrubbers {
  private readonly compiled = new Map<string, Compiled>();
  /** Per namespace, the compiles asked for, run one after the other. */
  private readonly queue = new Map<string, Promise<unknown>>();

  /** Per namespace, each record's value as last decrypted, by id, with the revision it was decrypted at. */
  private readonly decrypted = new Map<string, Map<string, { stamp: string; value: ScrubValue }>>();

  /** `source` answers the namespace's scrub version and records from memory (namespace-state.ts). */
  constructor(
    private readonly source: (namespace: string) => Promise<{ version: number; records: readonly StoredRecord[] }>,
    private readonly key: () => HeldKey | null,
    /** Told of records the held key couldn't open, with the scrubber just compiled: they are marked and audited there. */
    private readonly unreadable: (namespace: string, held: HeldKey, records: StoredRecord[], scrubber: Scrubber) => Promise<void> = async () => undefined,
    /** Where tables are built (README, Limits): the document's worker. */
    private readonly worker: Pick<VaultWorker, 'compile' | 'close'> = vaultWorker,
  ) {}

  /** Per namespace, the compile `soon` has scheduled. */
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();

  /** Ends the compile worker (the document is going). */
  close() {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.soonKeyed.clear();
    this.withKey.clear();
    this.worker.close();
  }

  /**
   * The values changed: compile once they have been still for COMPILE_AFTER_MS, so a burst of
   * writes costs one compile. An op that scrubs meanwhile compiles at once (`refresh`).
   */
  soon(namespace: string) {
    this.cancelSoon(namespace);
    // The key as it is now: a lock in the meantime must not leave the new values unscrubbed.
    const held = this.key();
    const timer = setTimeout(() => {
      this.cancelSoon(namespace);
      // A failed compile is answered to the op that needs it; a scheduled one only tries.
      this.refresh(namespace, held).catch(() => undefined);
    }, COMPILE_AFTER_MS);
    this.pending.set(namespace, timer);
    if (held) this.keyed(namespace, +1);
    this.soonKeyed.set(namespace, held);
  }

  private cancelSoon(namespace: string) {
    clearTimeout(this.pending.get(namespace));
    this.pending.delete(namespace);
    if (this.soonKeyed.get(namespace)) this.keyed(namespace, -1);
    this.soonKeyed.delete(namespace);
  }

  /** Per namespace, compiles asked for while the key was held, not yet done (scheduled or running). */
  private readonly withKey = new Map<string, number>();
  /** Per namespace, the key a scheduled compile holds (null: it was scheduled while locked). */
  private readonly soonKeyed = new Map<string, HeldKey | null>();

  private keyed(namespace: string, by: number) {
    const n = (this.withKey.get(namespace) ?? 0) + by;
    if (n > 0) this.withKey.set(namespace, n);
    else this.withKey.delete(namespace);
  }

  /**
   * Whether this document can scrub the namespace: it has a compiled scrubber, or a compile asked
   * for while the key was held is still on its way (an op that scrubs waits for it), so a lock
   * right after an unlock or a write doesn't make `scrub.ready` false for that moment.
   */
  ready(namespace: string): boolean {
    return this.compiled.has(namespace) || this.withKey.has(namespace);
  }

  /** The newest scrubber compiled for the namespace, whatever its version. */
  get(namespace: string): Compiled | undefined {
    return this.compiled.get(namespace);
  }

  /**
   * Compiles the namespace's scrubber when the key is there and the values changed since the last
   * compile, and answers the newest scrubber there is. Calls queue per namespace; a call whose
   * turn comes when the scrubber is already current costs one read. Without the key (a lock since),
   * a compile `soon` scheduled while it was held runs now with that key, so an op scrubbing
   * meanwhile never gets the scrubber from before the values changed.
   */
  refresh(namespace: string, keyAtWrite: HeldKey | null = this.key() ?? this.soonKeyed.get(namespace) ?? null): Promise<Compiled | undefined> {
    // The key as it is when asked: a lock before this call's turn comes doesn't cancel it.
    if (keyAtWrite) this.keyed(namespace, +1);
    const turn = (this.queue.get(namespace) ?? Promise.resolve()).then(() => this.compileIfStale(namespace, keyAtWrite));
    if (keyAtWrite) void turn.finally(() => this.keyed(namespace, -1)).catch(() => undefined);
    const settled = turn.catch(() => undefined);
    this.queue.set(namespace, settled);
    void settled.then(() => this.queue.get(namespace) === settled && this.queue.delete(namespace));
    return turn;
  }

  private async compileIfStale(namespace: string, keyAtWrite: HeldKey | null): Promise<Compiled | undefined> {
    const { version: scrubVersion, records } = await this.source(namespace);
    const current = this.compiled.get(namespace);
    const held = this.key() ?? keyAtWrite;
    if (!held || current?.version === scrubVersion) return current;
    // An unreadable record is skipped, marked and audited; the rest of the namespace is scrubbed.
    const { values, unreadable } = await this.values(namespace, held.key, records);
    const compiled = { version: scrubVersion, scrubber: await this.worker.compile(values) };
    this.compiled.set(namespace, compiled);
    if (unreadable.length > 0) await this.unreadable(namespace, held, unreadable, compiled.scrubber);
    return compiled;
  }

  /** Per namespace, the values this document wrote since its last compile, each with the scrub version it made. */
  private readonly written = new Map<string, { version: number; value: ScrubValue }[]>();
  /** Namespaces whose compile `wrote` started, not yet done. */
  private readonly hurried = new Set<string>();

  /**
   * This document's write of `value` made the namespace's scrub version `version` (one more than it
   * read). Kept in memory as the compiled values are, for `textNow`. A burst of writes never lets
   * `soon`'s compile run, so past AUDIT_BESIDE_COMPILE values the compile starts at once.
   */
  wrote(namespace: string, value: ScrubValue, version: number) {
    const since = this.compiled.get(namespace)?.version ?? Number.POSITIVE_INFINITY;
    const kept = (this.written.get(namespace) ?? []).filter((w) => w.version > since);
    // Past the bound the list is of no use (textNow waits then): it stays bounded too.
    if (kept.length <= AUDIT_BESIDE_VALUES) kept.push({ version, value });
    this.written.set(namespace, kept);
    if (kept.length >= AUDIT_BESIDE_COMPILE && this.key() && !this.hurried.has(namespace)) {
      this.hurried.add(namespace);
      void this.refresh(namespace)
        .catch(() => undefined)
        .finally(() => this.hurried.delete(namespace));
    }
  }

  /**
   * A text scrubber for this moment without waiting for the worker (a write's audit text): the last
   * compile, and beside it the values this document wrote since. Undefined when there is no compile
   * yet, a change since that this document didn't make (another document's write, a removal), or
   * more than a few values: the caller then waits for `refresh`.
   */
  textNow(namespace: string, version: number): ((text: string) => string) | undefined {
    // No key needed: the values written since are in memory, as the compiled ones are (locking
    // stops value use, never scrubbing).
    const compiled = this.compiled.get(namespace);
    if (!compiled) return undefined;
    const scrub = (text: string) => compiled.scrubber.redact(text).text;
    if (compiled.version === version) return scrub;
    if (version - compiled.version > AUDIT_BESIDE_VALUES) return undefined;
    // Every version since the compile must be one this document's own write made (another
    // document's write or a removal made one it doesn't know the values of): else it waits.
    const since = (this.written.get(namespace) ?? []).filter((w) => w.version > compiled.version && w.version <= version);
    const versions = new Set(since.map((w) => w.version));
    if (versions.size !== version - compiled.version || since.length !== versions.size) return undefined;
    const beside = since.map((w) => w.value);
    if (beside.reduce((n, v) => n + utf8Length(v.value), 0) > AUDIT_BESIDE_BYTES) return undefined;
    const shortest = Math.min(...beside.map((v) => v.value.length));
    let late: Scrubber | undefined;
    return (text) => {
      const main = compiled.scrubber.redact(text);
      // Every form of a value is at least as long as the value in UTF-16 units (docs/scrubber.md,
      // Forms): a text shorter than every value written since holds none (names mostly), and the
      // first that could hold one compiles them all, once for every string of the entry.
      if (text.length < shortest) return main.text;
      try {
        late ??= compileScrubber(beside);
      } catch {
        return WITHHELD;
      }
      const found = late.redact(text);
      if (found.hits.length === 0) return main.text;
      if (main.hits.length === 0) return found.text;
      // Values of both sets in one text may overlap, and one scrubber after the other could
      // release a part of one the other's replacement cut: the text is withheld instead.
      return WITHHELD;
    };
  }

  /** Every record's value: only those written since the last compile are decrypted again. */
  private async values(namespace: string, key: CryptoKey, records: readonly StoredRecord[]): Promise<{ values: ScrubValue[]; unreadable: StoredRecord[] }> {
    const before = this.decrypted.get(namespace) ?? new Map();
    const after = new Map<string, { stamp: string; value: ScrubValue }>();
    const unreadable: StoredRecord[] = [];
    await Promise.all(
      records.map(async (r) => {
        const stamp = `${r.revision ?? 0}:${r.updatedAt}:${r.name}`;
        const known = before.get(r.id);
        if (known?.stamp === stamp) return after.set(r.id, known);
        try {
          after.set(r.id, { stamp, value: { name: r.name, placeholder: r.placeholder, value: await decryptValue(key, r) } });
        } catch {
          unreadable.push(r);
        }
      }),
    );
    this.decrypted.set(namespace, after);
    return { values: records.flatMap((r) => after.get(r.id)?.value ?? []), unreadable };
  }
}
