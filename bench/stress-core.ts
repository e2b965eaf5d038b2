// The hostile input classes of README, Limits, each run against the real vault and against a bare
// echo document on the vault's origin with the same messages, while a heartbeat in the embedder
// measures the longest time its main thread (which the same-site vault frame shares) was held.
// Used by test/stress.test.ts (which asserts) and bench/stress.bench.mjs (which prints).

export interface Port {
  /** Sends `{ v: 1, id, op, ...fields }` and resolves with its reply. */
  request(op: string, fields?: Record<string, unknown>, transfer?: Transferable[]): Promise<any>;
}

/** Embeds `path` of the vault's origin and says hello: a port that keeps nothing but what waits for a reply. */
export async function openPort(vault: string, path: string, role = 'page'): Promise<Port> {
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

/** A heartbeat: a message loop whose longest gap is the longest the thread was held. */
export function heartbeat() {
  const channel = new MessageChannel();
  let last = performance.now();
  let worst = 0;
  let running = true;
  channel.port1.onmessage = () => {
    const now = performance.now();
    if (now - last > worst) worst = now - last;
    last = now;
    if (running) channel.port2.postMessage(null);
  };
  channel.port2.postMessage(null);
  return {
    /** Runs `work`, answering the longest gap while it ran (the beat after it included). */
    async during(work: () => Promise<unknown>): Promise<number> {
      last = performance.now();
      worst = 0;
      await work();
      // One more beat, so a block at the very end counts.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const now = performance.now();
      return Math.max(worst, now - last);
    },
    stop() {
      running = false;
      channel.port1.close();
    },
  };
}

const enc = new TextEncoder();
const user = { pid: 4242, ppid: 1, uid: 1000, gid: 1000, tag: 'stress' };
const P = 'fnox_proxy_0123456789abcdef01234567';

export type Attester = (path: string, text: string) => Promise<unknown>;

/**
 * The documents a class talks to: the vault's page and agent ports, documents of the vault origin
 * that try passphrases with the vault's lock (`bench/guess-page.ts`), and the echo.
 */
export interface Ports {
  page: Port;
  agent: Port;
  guesses: Port[];
  echo: Port;
}

/** Opens the ports of a run: the vault's, three guessing documents' and the echo's. */
export async function openPorts(vault: string): Promise<Ports> {
  return {
    page: await openPort(vault, '/'),
    agent: await openPort(vault, '/', 'agent'),
    guesses: await Promise.all(Array.from({ length: 3 }, () => openPort(vault, '/bench/guess.html'))),
    echo: await openPort(vault, '/bench/echo.html'),
  };
}

/** One class: a few ops; each op is one request, or (`guesses`) one to every guessing document at once. */
export interface StressClass {
  name: string;
  /** Runs before each run of the class, on the vault only (values to scrub with, say). */
  setup?: (ports: Ports) => Promise<void>;
  /** The ops, each timed on its own; `port` picks the agent or page port, or every guessing document. */
  ops: (attest: Attester) => Promise<{ port: 'agent' | 'page' | 'guesses'; op: string; fields: () => Record<string, unknown>; transfer?: boolean }[]>;
}

const bytes = (n: number, fill = 0x61) => new Uint8Array(n).fill(fill);
const value = (i: number, size: number) => `v${i}-${'x'.repeat(size - 12)}-${String(i).padStart(5, '0')}`.slice(0, size);

export const CLASSES: StressClass[] = [
  {
    name: 'huge redact (one 64 MiB text)',
    setup: async ({ page }) => void (await page.request('put', { name: 'STRESS_KEY', value: 'stress-value-0123456789' })),
    ops: async () => [{ port: 'agent', op: 'redact', fields: () => ({ texts: [bytes(64 << 20)] }), transfer: true }],
  },
  {
    name: 'many texts (10,000 of 1 KiB)',
    setup: async ({ page }) => void (await page.request('put', { name: 'STRESS_KEY', value: 'stress-value-0123456789' })),
    ops: async () => [{ port: 'agent', op: 'redact', fields: () => ({ texts: Array.from({ length: 10_000 }, (_, i) => `${i} ${'t'.repeat(1010)}`) }) }],
  },
  {
    name: 'huge /dev/sealed fields (8 MiB provider, name, url)',
    ops: async () =>
      ['provider', 'name', 'url'].map((field) => ({
        port: 'page' as const,
        op: 'sealed',
        fields: () => {
          const big = 'p'.repeat(8 << 20);
          const req =
            field === 'provider'
              ? { op: 'request', kind: 'oauth', provider: big, oauth: {} }
              : field === 'name'
                ? { op: 'placeholder', name: big }
                : { op: 'test', name: 'STRESS', url: `https://a.example/${big}` };
          return { req, stamp: user };
        },
      })),
  },
  {
    name: 'request churn (200 request + cancel, then status)',
    ops: async () => {
      const ops = [];
      for (let i = 0; i < 200; i++) {
        ops.push({
          port: 'page' as const,
          op: 'sealed',
          fields: () => ({ req: { op: 'request', kind: 'jerk-seal', provider: `p${'q'.repeat(120)}` }, stamp: user }),
        });
        ops.push({ port: 'page' as const, op: 'sealed', fields: () => ({ req: { op: 'status' }, stamp: user }) });
      }
      return ops;
    },
  },
  {
    name: 'many large values (48 puts of 64 KiB)',
    ops: async () =>
      Array.from({ length: 48 }, (_, i) => ({ port: 'page' as const, op: 'put', fields: () => ({ name: `BIG_${i}`, value: value(i, 65_536) }) })),
  },
  {
    name: 'TOML nesting (a 1 MiB file 500,000 deep)',
    ops: async (attest) => {
      const file = await attest('/etc/slicc/secrets-policy.toml', `x = ${'['.repeat(500_000)}${']'.repeat(500_000)}\n`);
      return [{ port: 'page' as const, op: 'policy', fields: () => ({ files: [file] }) }];
    },
  },
  {
    // Each guess tried is a PBKDF2 of 600,000 iterations, and counts before it runs (README, Key store and lock):
    // of three at once, the first is tried and the others wait out its failure's delay.
    name: 'concurrent wrong passphrases (3 documents at once)',
    setup: async ({ guesses }) => void (await guesses[0]!.request('set')),
    ops: async () => [
      { port: 'guesses' as const, op: 'guess', fields: () => ({}) },
      { port: 'guesses' as const, op: 'failures', fields: () => ({}) },
    ],
  },
  {
    name: 'many rules and paths (4,096 rules, 256 paths each in one)',
    ops: async (attest) => {
      const paths = `paths = [${Array.from({ length: 256 }, (_, i) => `"/p/${i}"`).join(', ')}]\n`;
      const rules = Array.from({ length: 4096 }, (_, i) => `[[proxy.rules]]\nsecret = "GH"\ndomain = "h${i}.example"\n${i === 0 ? paths : ''}`).join('');
      const file = await attest('/etc/fnox/config.toml', `[secrets]\nGH = { provider = "seven", value = "${P}" }\n${rules}`);
      return [
        { port: 'page' as const, op: 'policy', fields: () => ({ files: [file] }) },
        { port: 'page' as const, op: 'status', fields: () => ({}) },
        { port: 'page' as const, op: 'list', fields: () => ({}) },
        { port: 'page' as const, op: 'put', fields: () => ({ name: 'GH', value: 'a-value-for-gh-0123' }) },
      ];
    },
  },
];

export interface ClassResult {
  name: string;
  ops: number;
  /** The longest block of any op of the class, against the vault and against the echo. */
  vaultMs: number;
  echoMs: number;
  /** The longest op's block less its echo's: what the vault itself adds; and which op that was. */
  worstExcessMs: number;
  worstOp: string;
  errors: string[];
}

/**
 * Runs a class: each op against the vault, then the same message against the echo over a window as
 * long as the vault's op took.
 */
export async function runClass(c: StressClass, ports: Ports, attest: Attester): Promise<ClassResult> {
  await c.setup?.(ports);
  const ops = await c.ops(attest);
  const beat = heartbeat();
  let vaultMs = 0;
  let echoMs = 0;
  let worstExcessMs = 0;
  let worstOp = '';
  const errors = new Set<string>();
  try {
    for (const o of ops) {
      // The message is made before the clock starts: making it is the test's work, not the vault's.
      const message = () => {
        const fields = o.fields();
        const transfer = o.transfer ? ((fields.texts as Uint8Array[]) ?? []).map((t) => t.buffer) : [];
        return (port: Port) => port.request(o.op, fields, transfer);
      };
      const toVault = message();
      const started = performance.now();
      let took = 0;
      const v = await beat.during(async () => {
        const targets = o.port === 'guesses' ? ports.guesses : [ports[o.port]];
        for (const reply of await Promise.all(targets.map(toVault))) {
          const error = reply.error ?? reply.reply?.error;
          if (error) errors.add(`${error.code}: ${error.message}`);
        }
        took = performance.now() - started;
      });
      const toEcho = message();
      // The echo's window is as long as the vault's op took, the heart beating throughout: a pause
      // of the machine's own (other processes on its cores) is as likely in either window.
      const e = await beat.during(async () => {
        const from = performance.now();
        await Promise.all((o.port === 'guesses' ? ports.guesses : [null]).map(() => toEcho(ports.echo)));
        const rest = took - (performance.now() - from);
        if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      });
      vaultMs = Math.max(vaultMs, v);
      echoMs = Math.max(echoMs, e);
      if (v - e > worstExcessMs || !worstOp) {
        worstExcessMs = Math.max(0, v - e);
        worstOp = `${o.op} (${ops.indexOf(o) + 1} of ${ops.length})`;
      }
    }
  } finally {
    beat.stop();
  }
  return { name: c.name, ops: ops.length, vaultMs, echoMs, worstExcessMs, worstOp, errors: [...errors] };
}

export { enc };
