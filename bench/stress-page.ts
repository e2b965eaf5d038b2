// Runs in Chromium on the embedder origin: every class of bench/stress-core.ts against the real
// vault (page and agent ports, and documents that guess passphrases with its lock) and a bare
// echo on the vault origin, in one run.
import { CLASSES, openPorts, runClass } from './stress-core.ts';

const vault = new URLSearchParams(location.search).get('vault')!;

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A trusted attestation, as the kernel makes it. */
async function attest(path: string, text: string) {
  const bytes = new TextEncoder().encode(text);
  const dirs = path.split('/').slice(1, -1);
  return {
    path,
    bytes,
    uid: 0,
    gid: 0,
    mode: 0o100644,
    ino: 1,
    mtimeMs: 0,
    sha256: await sha256(bytes),
    users: 'enforce',
    onRootFs: true,
    parents: ['/', ...dirs.map((_, i) => `/${dirs.slice(0, i + 1).join('/')}`)].map((p) => ({ path: p, uid: 0, gid: 0, mode: 0o40755 })),
  };
}

(window as any).runStress = async (only = '', repeat = 1) => {
  const ports = await openPorts(vault);
  const results = [];
  for (let run = 0; run < repeat; run++) {
    for (const c of CLASSES.filter((c) => c.name.includes(only))) results.push(await runClass(c, ports, attest));
  }
  return results;
};
(window as any).stressReady = true;
