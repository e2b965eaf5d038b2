// What /dev/sealed needs of the vault (README, /dev/sealed): the narrow port the core satisfies.
import type { ExecKind, RecordState, RequestStateName, SealedReply, SecretView } from '../contract.ts';
import type { RevealDraft } from '../exec/index.ts';
import type { InEffect, TestRequest } from '../inject/index.ts';
import type { Limits } from '../policy/index.ts';
import type { Actor, Decided, HeldKey, NewRequest, RecordInput, RotationCheck, StoredRecord, StoredRequest } from '../store/index.ts';

/** What /dev/sealed uses of the vault: the key, the namespace from memory, requests, the verdict of `test`, and writes. */
export interface SealedVault {
  /** The key, and what it was adopted at (its check value and lock epoch), which a reveal checks in its transaction. */
  readonly keys: { readonly key: CryptoKey | null; readonly current: HeldKey | null };
  reads: {
    now(): number;
    fresh(namespace: string): Promise<void>;
    /** The accepted policy files in memory, which `inEffect` reads, as one string (`policyMark`). */
    policyMark(namespace: string): Promise<string>;
    all(namespace: string): Promise<StoredRecord[]>;
    /** How audit text is scrubbed: the namespace's scrubber as a string function, null before the first unlock. */
    auditText(namespace: string): Promise<((text: string) => string) | null>;
    record(namespace: string, name: string): Promise<StoredRecord | undefined>;
    inEffect(namespace: string): Promise<InEffect>;
    changed(namespace: string): Promise<{ secrets: SecretView[] }>;
    test(namespace: string, request: TestRequest): Promise<SealedReply>;
    requestsOf(namespace: string): Promise<StoredRequest[]>;
    requestOf(namespace: string, id: string): Promise<StoredRequest>;
  };
  writes: {
    write(namespace: string, input: RecordInput, how: { check?: RotationCheck; actor?: Actor }): Promise<{ placeholder: string; state: RecordState }>;
    request(namespace: string, fields: NewRequest): Promise<StoredRequest>;
    cancel(namespace: string, id: string): Promise<{ state: RequestStateName }>;
    reveal(
      namespace: string,
      kind: ExecKind,
      limits: Limits,
      ids: string[],
      entries: (refused: string | null) => RevealDraft[],
      decided: Decided,
    ): Promise<{ refused: string | null } | null>;
    refusedReveal(namespace: string, entries: RevealDraft[]): Promise<void>;
  };
}
