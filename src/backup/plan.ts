// The restore plan (README, Backup and restore): what restoring a read file does to this
// namespace, by name (the preview), and the writes a confirmation makes. Pure; the values stay in
// the popup's memory until the writes.
import type { ImportSource, RecordKind } from '../contract.ts';
import { type ImportWrite, type KeptRecord, type StoredRecord, seenOf } from '../store/index.ts';
import { newPlaceholder } from '../validate.ts';
import type { Incoming, ReadFile } from './format.ts';

/**
 * What restoring does to a name: `new` here; `replaces` the live value here; `restores` brings back a
 * record removed here whose copy in the file is live (the same value or not); `unchanged`; `invalid`.
 */
export type PreviewStatus = 'new' | 'replaces' | 'restores' | 'unchanged' | 'invalid';

/** One line of the preview: a name, what restoring does to it, never a value. */
export interface PreviewItem {
  name: string;
  kind?: RecordKind;
  status: PreviewStatus;
  /** `invalid`: the rule it breaks; `unchanged`: why it stays as it is, when it isn't plain. */
  reason?: string;
  /** Removed in the backup: restored as removed (a new name), kept as it is here otherwise. */
  removed?: boolean;
  /** The placeholder it has after the restore. */
  placeholder?: string;
  /** The backup's placeholder, when the restore gives another: `[secrets]` entries naming it must change. */
  placeholderWas?: string;
}

/** One record to write, with its value: it stays in the popup's memory until confirmed. */
export type RestoreWrite = ImportWrite;

export interface RestorePlan {
  source: ImportSource;
  /** The backup's namespace when it isn't this one. */
  otherNamespace?: string;
  items: PreviewItem[];
  invalidLines: string[];
  writes: RestoreWrite[];
  /** The records here the preview read and leaves as they are: the write checks them too. */
  kept: KeptRecord[];
  /** For the audit: records (and invalid lines) in the file, and how many are skipped. */
  count: number;
  added: number;
  /** Records written over one here: `replaces` and `restores` (the audit's `replaced`). */
  replaced: number;
  /** Of `replaced`, the records brought back from removed. */
  broughtBack: number;
  skipped: number;
}

/** What the plan needs to know of the vault as it is: this namespace's records and values. */
export interface Current {
  namespace: string;
  records: StoredRecord[];
  /** Values of this namespace's records by name, for `unchanged`. */
  values: Map<string, string>;
  /** Placeholders anywhere in the vault (every namespace). */
  taken: Set<string>;
}

/**
 * The preview and the writes: a name that exists here keeps its placeholder; a new one keeps the
 * file's placeholder when it is free in the whole vault, else gets a fresh one (and says so).
 */
export function planRestore(file: ReadFile, current: Current, fresh: () => string = newPlaceholder): RestorePlan {
  const byName = new Map(current.records.map((r) => [r.name, r]));
  const claimed = new Set<string>();
  const items: PreviewItem[] = [];
  const writes: RestoreWrite[] = [];
  const kept: KeptRecord[] = [];
  const keep = (here: StoredRecord) => kept.push({ name: here.name, id: here.id, ...seenOf(here) });
  for (const incoming of file.records) {
    const { name } = incoming;
    if (incoming.problem !== undefined || incoming.value === undefined || incoming.kind === undefined) {
      items.push({ name, ...(incoming.kind && { kind: incoming.kind }), status: 'invalid', reason: incoming.problem ?? 'it has no value' });
      continue;
    }
    const kind = incoming.kind;
    const here = byName.get(name);
    const removed = incoming.removedAt !== undefined;
    if (here) {
      if (here.kind !== kind) {
        keep(here);
        items.push({ name, kind, status: 'invalid', reason: `${name} is a ${here.kind} record here, not a ${kind}` });
        continue;
      }
      if (removed) {
        keep(here);
        items.push({ name, kind, status: 'unchanged', removed, placeholder: here.placeholder, reason: 'removed in the backup; kept as it is here' });
        continue;
      }
      const back = here.removedAt !== undefined;
      const same =
        !back &&
        current.values.get(name) === incoming.value &&
        here.provider === incoming.provider &&
        here.account === incoming.account &&
        here.expiresAt === incoming.expiresAt;
      if (same) {
        keep(here);
        items.push({ name, kind, status: 'unchanged', placeholder: here.placeholder });
        continue;
      }
      items.push({
        name,
        kind,
        status: back ? 'restores' : 'replaces',
        placeholder: here.placeholder,
        ...(incoming.placeholder && incoming.placeholder !== here.placeholder && { placeholderWas: incoming.placeholder }),
      });
      writes.push(writeOf(incoming, kind, here.placeholder, here));
      continue;
    }
    let placeholder = incoming.placeholder;
    if (placeholder === undefined || current.taken.has(placeholder) || claimed.has(placeholder)) {
      do placeholder = fresh();
      while (current.taken.has(placeholder) || claimed.has(placeholder));
    }
    claimed.add(placeholder);
    items.push({
      name,
      kind,
      status: 'new',
      placeholder,
      ...(removed && { removed }),
      ...(incoming.placeholder && incoming.placeholder !== placeholder && { placeholderWas: incoming.placeholder }),
    });
    writes.push(writeOf(incoming, kind, placeholder));
  }
  const added = items.filter((i) => i.status === 'new').length;
  const broughtBack = items.filter((i) => i.status === 'restores').length;
  const replaced = items.filter((i) => i.status === 'replaces').length + broughtBack;
  const count = file.records.length + file.invalidLines.length;
  return {
    source: file.source,
    ...(file.namespace !== undefined && file.namespace !== current.namespace && { otherNamespace: file.namespace }),
    items,
    invalidLines: file.invalidLines,
    writes,
    kept,
    count,
    added,
    replaced,
    broughtBack,
    skipped: count - added - replaced,
  };
}

function writeOf(incoming: Incoming, kind: RecordKind, placeholder: string, here?: StoredRecord): RestoreWrite {
  const replaces = here?.id;
  return {
    name: incoming.name,
    kind,
    value: incoming.value!,
    placeholder,
    ...(here !== undefined && { replaces: here.id, was: seenOf(here) }),
    ...(replaces === undefined && incoming.createdAt !== undefined && { createdAt: incoming.createdAt }),
    ...(replaces === undefined && incoming.removedAt !== undefined && { removedAt: incoming.removedAt }),
    ...(incoming.expiresAt !== undefined && { expiresAt: incoming.expiresAt }),
    ...(incoming.provider !== undefined && { provider: incoming.provider }),
    ...(incoming.account !== undefined && { account: incoming.account }),
  };
}
