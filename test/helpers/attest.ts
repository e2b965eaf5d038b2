// Attestations as the kernel's `kernel.attest(path)` makes them, and the KS-7 fixtures.
import type { Attestation } from '../../src/contract.ts';

export interface Fixture {
  description: string;
  trusted: boolean;
  reason?: string;
  attestation: Record<string, unknown>;
}

const DIR = '/test/integration/fixtures/attest';

/** `bytes` is base64 when it is a string; anything else is passed as it is (see make.mjs). */
export function decode(attestation: Record<string, unknown>): Record<string, unknown> {
  if (typeof attestation !== 'object' || attestation === null || Array.isArray(attestation)) return attestation;
  const a = { ...attestation };
  if (typeof a.bytes === 'string') a.bytes = Uint8Array.from(atob(a.bytes), (c) => c.charCodeAt(0));
  return a;
}

/** Every fixture by name, in `index.json`'s order. */
export async function loadFixtures(): Promise<Map<string, Fixture>> {
  const names: string[] = await (await fetch(`${DIR}/index.json`)).json();
  return new Map(await Promise.all(names.map(async (name) => [name, await (await fetch(`${DIR}/${name}.json`)).json()] as const)));
}

export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A trusted attestation of `text` at `path`, with `overrides` to break a condition. */
export async function attest(path: string, text: string, overrides: Partial<Attestation> = {}): Promise<Attestation> {
  const bytes = new TextEncoder().encode(text);
  const dirs = path.split('/').slice(1, -1);
  return {
    path,
    bytes,
    uid: 0,
    gid: 0,
    mode: 0o100644,
    ino: 4242,
    mtimeMs: 1764460800000,
    sha256: await sha256(bytes),
    users: 'enforce',
    onRootFs: true,
    parents: ['/', ...dirs.map((_, i) => `/${dirs.slice(0, i + 1).join('/')}`)].map((p) => ({ path: p, uid: 0, gid: 0, mode: 0o40755 })),
    ...overrides,
  };
}

export const FNOX = '/etc/fnox/config.toml';
export const SECRETS = '/etc/slicc/secrets-policy.toml';

/** A fnox config giving each `[name, placeholder, domain]` a seven entry and one rule. */
export function fnoxConfig(entries: [name: string, placeholder: string, domain: string, extra?: string][]): string {
  const secrets = entries.map(([name, placeholder]) => `${name} = { provider = "seven", value = "${placeholder}" }`);
  const rules = entries.map(([name, , domain, extra]) => `[[proxy.rules]]\nsecret = "${name}"\ndomain = "${domain}"\n${extra ?? ''}`);
  return `[secrets]\n${secrets.join('\n')}\n\n${rules.join('\n')}\n`;
}
