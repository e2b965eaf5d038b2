// Runs in Chromium on the embedder origin: every class of bench/stress-core.ts against the real
// vault (page and agent ports) and a bare echo on the vault origin, in one run.
import { CLASSES, openPort, runClass } from './stress-core.ts';

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

(window as any).runStress = async (only = '') => {
  const page = await openPort(vault, '/');
  const agent = await openPort(vault, '/', 'agent');
  const echo = await openPort(vault, '/bench/echo.html');
  const results = [];
  for (const c of CLASSES.filter((c) => c.name.includes(only))) results.push(await runClass(c, { page, agent, echo }, attest));
  return results;
};
(window as any).stressReady = true;
