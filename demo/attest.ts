// What bios's `kernel.attest(path)` would hand over, built from the choices in the policy panel:
// the file's bytes and stats, its parents from `/` down, and the SHA-256 WebCrypto computes.
import type { Attestation } from '../src/contract.ts';

export const FNOX = '/etc/fnox/config.toml';
export const SECRETS_POLICY = '/etc/slicc/secrets-policy.toml';

/** One directory above the file, as the panel edits it (mode in octal, type bits included). */
export interface ParentChoice {
  path: string;
  uid: number;
  mode: string;
}

/** Everything about one file the person can choose. */
export interface FileChoice {
  path: string;
  text: string;
  uid: number;
  gid: number;
  /** Octal, type bits included: `100644`. */
  mode: string;
  users: 'off' | 'report' | 'enforce';
  onRootFs: boolean;
  parents: ParentChoice[];
  /** Send a digest that doesn't match the bytes, to see that the field alone is never trusted. */
  wrongSha256: boolean;
}

/** `/`, `/etc`, `/etc/fnox` for `/etc/fnox/config.toml`. */
export function parentPaths(path: string): string[] {
  const dirs = path.split('/').slice(1, -1);
  return ['/', ...dirs.map((_, i) => `/${dirs.slice(0, i + 1).join('/')}`)];
}

/** The choices of a file the kernel would trust. */
export function trustedChoice(path: string, text: string): FileChoice {
  return {
    path,
    text,
    uid: 0,
    gid: 0,
    mode: '100644',
    users: 'enforce',
    onRootFs: true,
    parents: parentPaths(path).map((p) => ({ path: p, uid: 0, mode: '40755' })),
    wrongSha256: false,
  };
}

export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

const octal = (text: string) => Number.parseInt(text.trim() || '0', 8);

/** The attestation of `choice`, read "now". */
export async function attest(choice: FileChoice, now = Date.now()): Promise<Attestation> {
  const bytes = new TextEncoder().encode(choice.text);
  let sha256 = await sha256Hex(bytes);
  if (choice.wrongSha256) sha256 = await sha256Hex(new TextEncoder().encode(`${choice.text}\n# not what was read`));
  return {
    path: choice.path,
    bytes,
    uid: choice.uid,
    gid: choice.gid,
    mode: octal(choice.mode),
    ino: 1000 + ((choice.path.length * 7919) % 9000),
    mtimeMs: now,
    sha256,
    users: choice.users,
    onRootFs: choice.onRootFs,
    parents: choice.parents.map((p) => ({ path: p.path, uid: p.uid, gid: 0, mode: octal(p.mode) })),
  };
}
