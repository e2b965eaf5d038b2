// Runs in Chromium on the embedder origin: every class of bench/stress-core.ts against the real
// vault (page and agent ports) and a bare echo on the vault origin, in one run.
import { CLASSES, type Port, runClass } from './stress-core.ts';

const vault = new URLSearchParams(location.search).get('vault')!;

async function open(path: string, role = 'page'): Promise<Port> {
  const frame = document.createElement('iframe');
  frame.src = `${vault}${path}`;
  document.body.append(frame);
  await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  const channel = new MessageChannel();
  const port = channel.port1;
  const waiting = new Map<number, (reply: unknown) => void>();
  const welcome = new Promise((resolve) => {
    port.onmessage = ({ data }) => {
      if (typeof data?.id === 'number') {
        waiting.get(data.id)?.(data);
        waiting.delete(data.id);
      } else if (data?.op === 'welcome') resolve(null);
    };
  });
  frame.contentWindow!.postMessage({ type: 'slicc-vault', v: 1, op: 'hello', role }, vault, [channel.port2]);
  await welcome;
  let id = 0;
  return {
    request(op, fields = {}, transfer = []) {
      const mine = ++id;
      return new Promise((resolve) => {
        waiting.set(mine, resolve);
        port.postMessage({ v: 1, id: mine, op, ...fields }, transfer);
      });
    },
  };
}

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

(window as any).runStress = async () => {
  const page = await open('/');
  const agent = await open('/', 'agent');
  const echo = await open('/bench/echo.html');
  const results = [];
  for (const c of CLASSES) results.push(await runClass(c, { page, agent, echo }, attest));
  return results;
};
(window as any).stressReady = true;
