// Trust in a KS-7 attestation (`kernel.attest(path)`): every condition of the README's Policy
// section, checked in its order; the first that fails is the reason. Pure apart from WebCrypto and
// the parse it is handed.
import { MAX_POLICY_FILE_BYTES as MAX_BYTES } from '../limits.ts';
import type { FnoxConfig } from './fnox-config.ts';
import { type ParsedFile, parsePolicyFile } from './parsed.ts';
import { FNOX_CONFIG, POLICY_PATHS, SECRETS_POLICY } from './paths.ts';
import type { SecretsPolicy } from './secrets-policy.ts';

/**
 * How a trusted file is parsed: once per SHA-256, off the main thread where a worker serves (the
 * vault's worker client hands in `parsePolicyFileOffThread`), so the accepted policy reads this parse.
 */
export type ParseFile = (path: string, sha256: string, text: string) => Promise<ParsedFile>;

/** A trusted file, with its parse (the one the accepted policy reads). */
export type Trusted = { trusted: true; path: string; text: string; sha256: string; parsed: FnoxConfig | SecretsPolicy };
export type Untrusted = {
  trusted: false;
  /** The attested path when it is one of the two policy files, otherwise `null`. */
  path: string | null;
  /** SHA-256 the vault computed over `bytes` (never the claimed one), `null` without bytes. */
  sha256: string | null;
  reason: string;
  /** `rules not trusted: <path>: <reason>`. */
  warning: string;
};
export type AttestationVerdict = Trusted | Untrusted;

const FIELDS = ['path', 'bytes', 'uid', 'gid', 'mode', 'ino', 'mtimeMs', 'sha256', 'users', 'onRootFs', 'parents'];
const PARENT_FIELDS = ['path', 'uid', 'gid', 'mode'];
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** The warning for a file the vault doesn't trust; `path` may be anything the caller received. */
export function untrustedWarning(path: unknown, reason: string): string {
  const shown = typeof path !== 'string' ? '(no path)' : POLICY_PATHS.includes(path) ? path : quote(path);
  return `rules not trusted: ${shown}: ${reason}`;
}

/** The directories above a policy file, from `/` down: `/`, `/etc`, `/etc/fnox`. */
export function parentsOf(path: string): string[] {
  const parts = path.split('/').slice(1, -1);
  return ['/', ...parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`)];
}

/** The parse in place, for callers without a worker. */
const parseHere: ParseFile = async (path, sha256, text) => parsePolicyFile(path, sha256, text);

export async function checkAttestation(input: unknown, parse: ParseFile = parseHere): Promise<AttestationVerdict> {
  const a = isPlainObject(input) ? input : null;
  const rawPath = a?.path;
  const path = typeof rawPath === 'string' && POLICY_PATHS.includes(rawPath) ? rawPath : null;
  // Copy before hashing: a view over a SharedArrayBuffer could change between hash and decode.
  const bytes = a && a.bytes instanceof Uint8Array && a.bytes.length <= MAX_BYTES ? new Uint8Array(a.bytes) : null;
  const sha256 = bytes ? await sha256Hex(bytes) : null;
  const reason = a ? check(a, bytes, sha256) : 'attestation must be an object';
  if (reason === null && path !== null && sha256 !== null && bytes !== null) {
    const text = decodeUtf8(bytes);
    if (text === null) return untrusted(path, sha256, 'bytes are not valid UTF-8');
    const parsed = await parse(path, sha256, text);
    if ('refused' in parsed) return untrusted(path, sha256, parsed.refused);
    return { trusted: true, path, text, sha256, parsed: parsed.parsed };
  }
  return untrusted(path, sha256, reason ?? 'attestation was not checked', rawPath);
}

function untrusted(path: string | null, sha256: string | null, reason: string, rawPath: unknown = path): Untrusted {
  return { trusted: false, path, sha256, reason, warning: untrustedWarning(rawPath, reason) };
}

/** The first broken condition, or `null`. `bytes` is the copy, null when not a (small) Uint8Array. */
function check(a: Record<string, unknown>, bytes: Uint8Array | null, sha256: string | null): string | null {
  const fields = exactFields(a, FIELDS);
  if (fields) return fields;
  if (typeof a.path !== 'string') return 'path must be a string';
  if (!POLICY_PATHS.includes(a.path)) return `path must be ${FNOX_CONFIG} or ${SECRETS_POLICY}`;
  if (!(a.bytes instanceof Uint8Array)) return 'bytes must be a Uint8Array';
  if (!bytes) return `bytes must be at most ${MAX_BYTES} bytes`;
  for (const f of ['uid', 'gid', 'mode'] as const) if (!isUint(a[f])) return `${f} must be a non-negative integer`;
  for (const f of ['ino', 'mtimeMs'] as const) if (!Number.isFinite(a[f])) return `${f} must be a finite number`;
  if (typeof a.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(a.sha256)) {
    return 'sha256 must be 64 lower-case hex characters';
  }
  if (a.users !== 'off' && a.users !== 'report' && a.users !== 'enforce') return 'users must be off, report or enforce';
  if (typeof a.onRootFs !== 'boolean') return 'onRootFs must be a boolean';
  if (!Array.isArray(a.parents)) return 'parents must be an array';
  for (const [i, p] of a.parents.entries()) {
    if (!isPlainObject(p)) return `parents[${i}] must be an object`;
    const pf = exactFields(p, PARENT_FIELDS);
    if (pf) return `parents[${i}]: ${pf}`;
    if (typeof p.path !== 'string') return `parents[${i}]: path must be a string`;
    for (const f of ['uid', 'gid', 'mode'] as const) {
      if (!isUint(p[f])) return `parents[${i}]: ${f} must be a non-negative integer`;
    }
  }

  if (a.sha256 !== sha256) return 'sha256 does not match bytes';

  const mode = a.mode as number;
  if (a.uid !== 0) return 'file must be owned by uid 0';
  if ((mode & S_IFMT) !== S_IFREG) return 'file must be a regular file';
  if (mode & 0o020) return 'file must not be group-writable';
  if (mode & 0o002) return 'file must not be world-writable';

  const parents = a.parents as { path: string; uid: number; mode: number }[];
  const expected = parentsOf(a.path);
  const given = parents.map((p) => p.path);
  const missing = expected.find((e) => !given.includes(e));
  if (missing !== undefined) return `parent ${missing} is missing`;
  const extra = given.find((g, i) => !expected.includes(g) || given.indexOf(g) !== i);
  if (extra !== undefined) return `unexpected parent ${quote(extra)}`;
  if (given.some((g, i) => g !== expected[i])) return `parents must be in order from /: ${expected.join(', ')}`;
  for (const p of parents) {
    if (p.uid !== 0) return `parent ${p.path} must be owned by uid 0`;
    if ((p.mode & S_IFMT) !== S_IFDIR) return `parent ${p.path} must be a directory`;
    if (p.mode & 0o020) return `parent ${p.path} must not be group-writable`;
    if (p.mode & 0o002) return `parent ${p.path} must not be world-writable`;
  }

  if (a.onRootFs !== true) return 'file must be on the root file system';
  if (a.users !== 'enforce') return 'kernel users must be enforce';
  return null;
}

/** Own data properties exactly `fields` (symbols and non-enumerable keys count as extra). */
function exactFields(o: object, fields: string[]): string | null {
  const keys = Reflect.ownKeys(o);
  const extra = keys.find((k) => typeof k !== 'string' || !fields.includes(k));
  if (extra !== undefined) return `unexpected field ${quote(String(extra))}`;
  const missing = fields.find((f) => !keys.includes(f));
  if (missing !== undefined) return `missing field ${missing}`;
  // A getter could answer differently each time it is read; structured clones never have one.
  const accessor = fields.find((f) => !('value' in Object.getOwnPropertyDescriptor(o, f)!));
  return accessor === undefined ? null : `field ${accessor} must be a data property`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function isUint(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}

function quote(v: string): string {
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
