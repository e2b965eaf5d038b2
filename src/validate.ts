// What a record's name and value may be (README, Records). Pure: each rule answers EINVAL saying
// which rule was broken, never echoing the value.
import type { KernelExec, RecordKind, Stamp } from './contract.ts';
import { einval } from './errors.ts';
import { MAX_ARGV, MAX_ARGV_BYTES, MAX_NAME, MAX_TAG, MAX_VALUE_BYTES, MIN_VALUE_BYTES, size, utf8Length } from './limits.ts';

export const PLACEHOLDER_PREFIX = 'fnox_proxy_';
/** A placeholder's form (README, Records): the prefix and 24 lower-case hex characters.
 * Built once from this constant, never from input: a literal and one fixed-count class, so a
 * match tries at most 35 characters from each start and can't backtrack further.
 */
const PLACEHOLDER_FORM = `${PLACEHOLDER_PREFIX}[0-9a-f]{24}`;
/** A placeholder anywhere in a text. */
export const PLACEHOLDER = new RegExp(PLACEHOLDER_FORM);
/** A text that is exactly one placeholder. */
export const PLACEHOLDER_EXACT = new RegExp(`^${PLACEHOLDER_FORM}$`);
/** Every placeholder in a text (for `matchAll` and `replace`). */
export const PLACEHOLDERS = new RegExp(PLACEHOLDER_FORM, 'g');
/** Anything that looks like a placeholder in any letter case (refused where no value may go). */
export const PLACEHOLDER_ANY_CASE = new RegExp(PLACEHOLDER_FORM, 'i');
/** An exit bios may choose: `page`, `proxy`, `tailscale` or `device:<name>`. */
export const EXIT_NAME = /^(page|proxy|tailscale|device:[A-Za-z0-9][A-Za-z0-9._-]{0,63})$/;
/** An agent's scrub stream id (README, The agent's ops). */
export const STREAM_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** An HTTP token (RFC 9110): a method or a header name. */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export const RECORD_KINDS: readonly RecordKind[] = ['secret', 'grant', 'model', 'mcp'];

/** A secret's name: an environment variable name of 1 to 128 characters. */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Any other record's name (grant, model, mcp), also a name in an MCP server's `names`. */
export const RECORD_NAME = /^[A-Za-z0-9_.:@/-]{1,128}$/;

/** A new placeholder: `fnox_proxy_` and 24 lower-case hex characters from getRandomValues. */
export function newPlaceholder(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return PLACEHOLDER_PREFIX + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function checkKind(kind: unknown): RecordKind {
  if (kind === undefined) return 'secret';
  if (typeof kind === 'string' && (RECORD_KINDS as string[]).includes(kind)) return kind as RecordKind;
  throw einval(`kind must be one of ${RECORD_KINDS.join(', ')}`);
}

export function checkName(name: unknown, kind: RecordKind): string {
  if (typeof name !== 'string') throw einval('name must be a string');
  if (name.length < 1 || name.length > MAX_NAME) throw einval(`name must be 1 to ${MAX_NAME} characters`);
  if (kind === 'secret') {
    if (!SECRET_NAME.test(name)) {
      throw einval("a secret's name must be an environment variable name: a letter or _, then letters, digits or _");
    }
  } else if (!RECORD_NAME.test(name)) {
    throw einval(`a ${kind} record's name may hold only letters, digits and _ . : @ / -`);
  }
  return name;
}

/** A name of a record of any kind (`placeholder`, `test`): the rules of every kind's names. */
export function checkAnyName(name: unknown): string {
  if (typeof name !== 'string' || !name) throw einval('name must be a non-empty string');
  if (name.length > MAX_NAME) throw einval(`name must be 1 to ${MAX_NAME} characters`);
  if (!RECORD_NAME.test(name)) throw einval("a record's name may hold only letters, digits and _ . : @ / -");
  return name;
}

/** The refusal of a value over MAX_VALUE_BYTES, for readers that know it is too long before they read it. */
export const valueTooLong = () => einval(`values longer than ${MAX_VALUE_BYTES} bytes aren't accepted`);

/** A value: UTF-8 text of MIN_VALUE_BYTES to MAX_VALUE_BYTES (8 to 65,536) bytes, without CR, LF or NUL, holding no placeholder. */
export function checkValue(value: unknown): string {
  if (typeof value !== 'string') throw einval('value must be a string');
  // UTF-8 takes at least a byte per UTF-16 unit: a longer value is refused before it is read.
  if (value.length > MAX_VALUE_BYTES) throw valueTooLong();
  if (!value.isWellFormed()) throw einval('value must be valid UTF-8 text (it holds a lone surrogate)');
  const bytes = new TextEncoder().encode(value).length;
  if (bytes < MIN_VALUE_BYTES) throw einval(`values shorter than ${MIN_VALUE_BYTES} bytes can't be protected from the model`);
  if (bytes > MAX_VALUE_BYTES) throw valueTooLong();
  if (/[\r\n\0]/.test(value)) throw einval('value must not contain CR, LF or NUL');
  if (PLACEHOLDER.test(value)) throw einval('value must not contain a placeholder');
  return value;
}

export function checkOptionalString(field: string, value: unknown, max = 256): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length < 1 || value.length > max) {
    throw einval(`${field} must be a string of 1 to ${max} characters`);
  }
  return value;
}

export function checkOptionalTime(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw einval(`${field} must be a time in epoch milliseconds`);
  }
  return value;
}

/**
 * Whether a list from a message has an entry at every index below its length, checked before any
 * loop over it. A structured clone keeps a sparse list's holes: `every` and `map` skip them, and a
 * list of 2^32 - 1 holes is a message of a few bytes that any loop over its indices takes minutes
 * to walk (README, Limits). This stops at the first hole, so it reads no more entries than the
 * message carries.
 */
export function isDense(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (!(i in list)) return false;
  return true;
}

/** The kernel's stamp, trusted as given but checked for shape (a malformed one is bios's bug: a port error). */
export function parseStamp(stamp: unknown): Stamp {
  const s = stamp as Partial<Stamp> | null;
  if (!s || typeof s !== 'object') throw einval('stamp must be { pid, ppid, uid, gid, tag }');
  for (const field of ['pid', 'ppid', 'uid', 'gid'] as const) {
    if (!Number.isSafeInteger(s[field]) || (s[field] as number) < 0) throw einval(`stamp.${field} must be a non-negative integer`);
  }
  if (typeof s.tag !== 'string') throw einval('stamp.tag must be a string');
  if (s.tag.length > MAX_TAG) throw einval(`stamp.tag must be at most ${MAX_TAG} characters`);
  const checked: Stamp = { pid: s.pid!, ppid: s.ppid!, uid: s.uid!, gid: s.gid!, tag: s.tag };
  if (s.exec !== undefined) checked.exec = parseExec(s.exec);
  return checked;
}

/** The stamp's `exec`, as the kernel fills it in (README, Exec): `{ kind: 'exec' | 'shell', argv }` within the limits. */
function parseExec(exec: unknown): KernelExec {
  const e = exec as Partial<KernelExec> | null;
  if (!e || typeof e !== 'object' || Array.isArray(e)) throw einval('stamp.exec must be { kind, argv }');
  if (Object.keys(e).some((key) => key !== 'kind' && key !== 'argv')) throw einval('stamp.exec takes only kind and argv');
  if (e.kind !== 'exec' && e.kind !== 'shell') throw einval('stamp.exec.kind must be exec or shell');
  const argv = e.argv;
  if (!Array.isArray(argv)) throw einval('stamp.exec.argv must be a list of strings');
  if (argv.length < 1 || argv.length > MAX_ARGV) throw einval(`stamp.exec.argv must hold 1 to ${MAX_ARGV} elements`);
  if (!isDense(argv) || !argv.every((a) => typeof a === 'string')) throw einval('stamp.exec.argv must be a list of strings');
  let bytes = 0;
  for (const a of argv as string[]) {
    // UTF-8 takes at least a byte per UTF-16 unit: the length first, so nothing over the limit is read through.
    bytes += a.length > MAX_ARGV_BYTES ? a.length : utf8Length(a);
    if (bytes > MAX_ARGV_BYTES) throw einval(`stamp.exec.argv must be at most ${size(MAX_ARGV_BYTES)} in all`);
  }
  return { kind: e.kind, argv: [...(argv as string[])] };
}

/**
 * A new passphrase typed twice, the lock's and a backup's alike: counted and compared in NFC, as it is
 * used (`e` and a combining accent are one character), at least `min` characters, the same both
 * times. What is wrong, for the caller to say in its own words, or null.
 */
export function newPassphraseProblem(passphrase: string, again: string, min: number): 'short' | 'mismatch' | null {
  const normalized = passphrase.normalize('NFC');
  if ([...normalized].length < min) return 'short';
  return normalized === again.normalize('NFC') ? null : 'mismatch';
}
