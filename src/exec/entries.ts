// The audit of an exec (README, Exec): one `materialize` entry per variable, revealed or refused,
// with the mode, the kind, the argv (at most 16 elements of 256 characters, scrubbed) and who asked.
import type { KernelExec, Stamp } from '../contract.ts';
import { MAX_AUDIT_ARGV, MAX_AUDIT_ARGV_CHARS } from '../limits.ts';
import type { Verdict } from './judge.ts';

/** A `materialize` entry as a write drafts it. */
export type RevealDraft = {
  type: 'materialize';
  name: string;
  variable: string;
  exec: Verdict['mode'];
  kind: KernelExec['kind'];
  argv: string[];
  argvCut?: true;
  uid: number;
  tag: string;
  refused?: string;
};

/**
 * The entries of one exec. `refused` is the refusal of the whole exec, if any: each variable then
 * carries its own reason, or the exec's. `scrub` is the namespace's scrubber (null before the first
 * unlock: then no argv is kept); the argv is scrubbed here, before its cut, and every string of the
 * entry again where it is stored (store/audit.ts).
 */
export function revealEntries(
  verdicts: Verdict[],
  exec: KernelExec,
  stamp: Stamp,
  refused: string | null,
  scrub: ((text: string) => string) | null,
): RevealDraft[] {
  // Scrubbed whole, then cut: a value cut first would no longer be a value the scrubber knows.
  const scrubbed = scrub ? exec.argv.slice(0, MAX_AUDIT_ARGV).map(scrub) : [];
  const kept = scrubbed.map((a) => a.slice(0, MAX_AUDIT_ARGV_CHARS));
  const cut = !scrub || exec.argv.length > MAX_AUDIT_ARGV || scrubbed.some((a) => a.length > MAX_AUDIT_ARGV_CHARS);
  return verdicts.map((v) => ({
    type: 'materialize',
    name: v.record?.name ?? v.variable,
    variable: v.variable,
    exec: v.mode,
    kind: exec.kind,
    argv: kept,
    ...(cut && { argvCut: true }),
    uid: stamp.uid,
    tag: stamp.tag,
    ...(refused !== null && { refused: v.refused ?? refused }),
  }));
}
