// Whether an exec may have the values it names (README, Exec): every variable's placeholder must be
// a `secret` of this namespace that isn't removed, expired or unreadable, whose `[exec]` line allows
// this exec (argv prefixes compared element by element, exactly), sealed by this uid if a program
// sealed it, with the vault unlocked. Every variable is judged before any value is decrypted; the
// first refusal refuses the whole exec. Pure.
import type { ExecKind, ExecMode, KernelExec, RecordKind, Source } from '../contract.ts';
import type { ExecPolicy } from '../policy/index.ts';

/** A record as the judgement needs it: never its value. */
export interface ExecRecord {
  name: string;
  kind: RecordKind;
  source: Source;
  removedAt?: number;
  expiresAt?: number;
  unreadableAt?: number;
  /** For a `process` value: the uid that sealed it. */
  uid?: number;
}

export interface ExecRequest {
  /** Variable → placeholder, in the order the kernel gave them. */
  env: Readonly<Record<string, string>>;
  exec: KernelExec;
  uid: number;
  locked: boolean;
  now: number;
  /** This namespace's record holding that placeholder, if any. */
  record(placeholder: string): ExecRecord | undefined;
  /** The `[exec]` line of a secret in the accepted policy, if any. */
  line(name: string): ExecPolicy | undefined;
}

/** One variable's verdict: its record, the `[exec]` mode, and why it may not be revealed, if so. */
export interface Verdict {
  variable: string;
  record?: ExecRecord;
  mode: ExecMode;
  refused?: string;
}

export interface Refusal {
  code: 'ENOENT' | 'EACCES';
  message: string;
}

/** Every variable's verdict, and the refusal of the whole exec (the first variable refused, or the lock), if any. */
export function judgeExec(request: ExecRequest): { verdicts: Verdict[]; refusal: Refusal | null } {
  const verdicts: Verdict[] = [];
  let refusal: Refusal | null = null;
  for (const [variable, placeholder] of Object.entries(request.env)) {
    const record = request.record(placeholder);
    if (!record) {
      const message = `${variable}'s placeholder is not of this vault`;
      verdicts.push({ variable, mode: false, refused: message });
      refusal ??= { code: 'ENOENT', message };
      continue;
    }
    const line = record.kind === 'secret' ? request.line(record.name) : undefined;
    const mode = line?.mode ?? false;
    const refused = refusalOf(record, line, request);
    verdicts.push({ variable, record, mode, ...(refused !== null && { refused }) });
    if (refused !== null) refusal ??= { code: 'EACCES', message: refused };
  }
  if (!refusal && request.locked) refusal = { code: 'EACCES', message: 'vault is locked: unlock it to reveal a value to a program' };
  return { verdicts, refusal };
}

/** Why this record may not go to this exec, or null. */
function refusalOf(record: ExecRecord, line: ExecPolicy | undefined, { exec, uid, now }: ExecRequest): string | null {
  const { name } = record;
  if (record.kind !== 'secret') return `${name} is a ${record.kind} record; only secrets are revealed to programs`;
  if (record.removedAt !== undefined) return `${name} was removed`;
  if (record.expiresAt !== undefined && record.expiresAt <= now) return `${name} expired`;
  if (record.unreadableAt !== undefined) return `${name} can't be read under the vault's key`;
  const mode = line?.mode ?? false;
  if (mode === false) return `${name} may not be revealed to a program: [exec] doesn't allow it`;
  if (!modeAllows(mode, line?.argv ?? [], exec)) {
    return exec.kind === 'shell'
      ? `${name} may not be revealed to a shell: [exec] allows ${mode === 'argv' ? 'only the programs it lists' : 'programs only'}`
      : `${name} may not be revealed to this program: [exec] lists other argv prefixes`;
  }
  if (record.source === 'process' && uid !== 0 && record.uid !== uid) {
    // A value sealed before the vault kept its sealer's uid: only root may have it.
    return record.uid === undefined ? `${name} was sealed by a user the vault didn't record; only root may have it` : `${name} was sealed by another user`;
  }
  return null;
}

/** `any`: every program; `shell`: every program and shells; `argv`: programs whose argv starts with a listed prefix. */
export function modeAllows(mode: Exclude<ExecMode, false>, prefixes: readonly (readonly string[])[], exec: KernelExec): boolean {
  if (exec.kind === 'shell') return mode === 'shell';
  if (mode !== 'argv') return true;
  return prefixes.some((prefix) => prefix.length <= exec.argv.length && prefix.every((element, i) => element === exec.argv[i]));
}

export type { ExecKind };
