// Generated hostile requests through the gateway over a real vault (README, Embedding API and
// Limits): every op of both roles, its fields near what the op wants or given wrong types, odd
// strings, edge numbers, sparse lists, structured-clone objects and names it doesn't know. Whatever
// comes, each request with an id gets exactly one reply, in order; an error is one of the protocol's
// codes and never the catch-all of an op that threw; a refused request changes nothing; no value
// crosses a port or reaches the console.
import { expect, waitUntil } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { AGENT_OPS, AGENT_PARSERS } from '../../src/agent/index.ts';
import { PAGE_OPS } from '../../src/gateway/commands.ts';
import { openVaultDb } from '../../src/store/index.ts';
import { Gateway } from '../../src/gateway/index.ts';
import { Vault } from '../../src/core/index.ts';
import { helloPort } from '../helpers/gateway.ts';
import { prng } from '../helpers/random.ts';
import { canary, findCanaries } from '../helpers/vault.ts';

const NS = 'https://seven.sliccy.ai';
const config = { name: 'test', passphraseIterations: 1000, requestLifetimeMs: 300_000 };
/** Requests per seed: enough that every op of both roles is also carried out, not only refused. */
const REQUESTS = 400;
const CODES = ['EINVAL', 'ENOENT', 'EEXIST', 'EACCES', 'EAGAIN', 'ENOTSUP'];
/** The reply of an op that threw something other than a VaultError (src/errors.ts). */
const CATCH_ALL = 'the vault could not complete the request; try again';

type Random = () => number;
const pick = <T>(random: Random, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const hex = (random: Random, n: number) => Array.from({ length: n }, () => pick(random, [...'0123456789abcdef'])).join('');

/** Strings an attacker tries: empty, long, control and lone-surrogate characters, near-placeholders, URLs. */
function hostileString(random: Random, placeholder: string): string {
  return pick(random, [
    () => '',
    () => ' ',
    () => 'A',
    () => 'API_KEY',
    () => 'a'.repeat(pick(random, [7, 8, 64, 65, 128, 129, 65536, 65537])),
    () => '\u0000',
    () => '\ud800',
    () => '\udfff\ud800',
    () => '🔑'.repeat(3),
    () => '\u202eKEY',
    () => 'é'.repeat(40000),
    () => placeholder,
    () => `${placeholder}x`,
    () => `fnox_proxy_${hex(random, 23)}`,
    () => `fnox_proxy_${'G'.repeat(24)}`,
    () => '__proto__',
    () => 'constructor',
    () => 'https://api.example.com/v1?x=1',
    () => 'http://127.0.0.1:1/',
    () => 'javascript:alert(1)',
    () => '%00%ff%',
    () => 'oauth:github',
    () => 'jerk:github@laptop',
    () => 'secret',
    () => 'model',
    () => '{"op":"list"}',
    () => 'x'.repeat(1 + Math.floor(random() * 300)),
  ])();
}

/** A sparse list: a structured clone keeps its holes, which `every` and `map` skip. */
function holey(...items: unknown[]): unknown[] {
  const list: unknown[] = [];
  list[2] = items[0];
  for (const item of items.slice(1)) list.push(item);
  return list;
}

/** Any value a structured clone carries. */
function hostileValue(random: Random, placeholder: string, depth = 0): unknown {
  const r = random();
  if (r < 0.4) return hostileString(random, placeholder);
  if (r < 0.6) return pick(random, [0, -1, 1, 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e308, Date.now(), 4097, 1001]);
  if (r < 0.7) return pick(random, [true, false, null, undefined]);
  if (r < 0.8)
    return pick(random, [() => new Uint8Array(Math.floor(random() * 64)), () => new ArrayBuffer(8), () => new Date(), () => new Map([[1, 2]]), () => 10n])();
  if (depth > 2) return {};
  if (r < 0.85) return holey(hostileValue(random, placeholder, depth + 1));
  if (r < 0.9) return Array.from({ length: Math.floor(random() * 4) }, () => hostileValue(random, placeholder, depth + 1));
  const object: Record<string, unknown> = {};
  for (const key of ['op', 'name', 'value', 'path', 'url', 'method', 'headers', 'text']) {
    if (random() < 0.3) object[key] = hostileValue(random, placeholder, depth + 1);
  }
  // An own `__proto__`, as a message from another realm can carry it.
  if (random() < 0.1) Object.defineProperty(object, '__proto__', { value: { polluted: true }, enumerable: true, writable: true, configurable: true });
  return object;
}

/** A field's value near what the op wants, so that more requests get past the first checks. */
function plausible(random: Random, field: string, placeholder: string): unknown {
  const stamp = () => ({ pid: 7, ppid: 1, uid: pick(random, [0, 1000]), gid: 0, tag: 'job' });
  const generators: Record<string, () => unknown> = {
    name: () => pick(random, ['API_KEY', 'API_KEY', 'GITHUB_TOKEN', 'HOSTILE_CANARY', 'A_1', 'lower_case', 'openai', 'mcp:server', 'N'.repeat(129)]),
    value: () =>
      pick(random, [
        `value-${hex(random, 8)}`,
        `value-${hex(random, 8)}`,
        `value-${hex(random, 8)}`,
        `value-${hex(random, 8)}`,
        `value-${hex(random, 8)}`,
        'short',
        'v'.repeat(65536),
        'v'.repeat(65537),
        placeholder,
        '\ud800abcdefgh',
      ]),
    kind: () => pick(random, ['secret', 'secret', 'secret', 'grant', 'model', 'mcp', 'oauth', 'Secret']),
    source: () => pick(random, ['oauth:github', 'oauth:github', 'jerk:github@laptop', 'jerk:github@laptop', 'oauth:', 'jerk:a@']),
    provider: () => pick(random, ['github', 'anthropic', 'p'.repeat(129)]),
    server: () => pick(random, ['docs', 'https://mcp.example.com/sse', 's'.repeat(3000)]),
    scopes: () => pick(random, [['repo'], holey('repo'), Array.from({ length: 33 }, () => 'x'), ['']]),
    account: () => pick(random, ['me@example.com', '']),
    expiresAt: () => pick(random, [Date.now() + 60_000, Date.now() - 1, -1, 8.64e15 + 1]),
    request: () => pick(random, [crypto.randomUUID(), 'x']),
    before: () => pick(random, [1, 2, 1000, 0]),
    limit: () => pick(random, [1, 50, 1000, 1001]),
    stamp,
    owner: stamp,
    req: () =>
      pick(random, [
        { op: 'list' },
        { op: 'placeholder', name: 'HOSTILE_CANARY' },
        { op: 'seal', name: 'SEALED_1', value: `sealed-${hex(random, 8)}` },
        { op: 'test', name: 'HOSTILE_CANARY', url: 'https://api.example.com/' },
        { op: 'status' },
        { op: 'cancel', id: 'x' },
        { op: 'request', kind: 'value', name: 'WANTED', prompt: 'please' },
        '{"op":"list"}',
        '{"op":',
      ]),
    head: () => ({
      method: pick(random, ['GET', 'POST', 'GET', 'get', 'GET /']),
      url: pick(random, ['https://api.example.com/v1', `https://api.example.com/?k=${placeholder}`, 'https://api.openai.com/v1/chat', 'not a url']),
      headers: pick(random, [
        [],
        [['authorization', `Bearer ${placeholder}`]],
        [['authorization', `Bearer ${placeholder}`]],
        holey(['x-key', placeholder]),
        [['bad name', 'v']],
        [['a', 1]],
      ]),
    }),
    body: () => pick(random, [`token=${placeholder}`, new TextEncoder().encode(placeholder)]),
    exit: () => pick(random, ['page', 'proxy', 'device:laptop', 'device:']),
    rawTraits: () => pick(random, [{}, { manualRedirects: true }, { manualRedirects: true }, { encodedBodies: 'yes' }]),
    files: () => pick(random, [[{ path: '/etc/slicc/secrets.toml', text: '', owner: 0 }], [], holey({ path: '/etc/x' })]),
    model: () => pick(random, [['https://api.openai.com/v1'], holey('https://api.example.com/'), ['*'], []]),
    mcp: () => pick(random, [['https://mcp.example.com/sse'], holey('https://mcp.example.com/')]),
    stream: () => pick(random, ['s1', 's2', 'bad id!', 'x'.repeat(65)]),
    chunk: () => new TextEncoder().encode(`chunk ${placeholder} ${hex(random, 4)}`),
    texts: () => pick(random, [[`text ${placeholder}`], holey('a text'), [new TextEncoder().encode(placeholder), 'b'], []]),
  };
  return (generators[field] ?? (() => hostileValue(random, placeholder)))();
}

/** The fields some op needs: given more often than the optional ones. */
const WANTED = [
  'name',
  'value',
  'kind',
  'source',
  'head',
  'owner',
  'exit',
  'rawTraits',
  'stream',
  'chunk',
  'texts',
  'req',
  'stamp',
  'files',
  'model',
  'server',
];

/** One request: an op of either role or none, its fields, some of them unknown, and an odd envelope now and then. */
function hostileRequest(random: Random, id: number, placeholder: string): Record<string, unknown> {
  // The streams' ops twice as often: a push reaches past its parser only on a stream opened before.
  const op = pick(random, [...Object.keys(PAGE_OPS), ...AGENT_OPS, 'redactStream', 'push', 'toString', '__proto__', 'hasOwnProperty', '', 'x'.repeat(65)]);
  const fields: Record<string, unknown> = {};
  const tables: Record<string, { fields: readonly string[] }>[] = [PAGE_OPS, AGENT_PARSERS];
  const known = tables.find((table) => Object.hasOwn(table, op))?.[op]?.fields ?? [];
  // Now and then a tame one: only the fields an op needs, each near what it wants.
  const tame = random() < 0.3;
  for (const field of known) {
    if (tame) {
      if (WANTED.includes(field)) fields[field] = plausible(random, field, placeholder);
    } else if (random() < (WANTED.includes(field) ? 0.9 : 0.3)) {
      fields[field] = random() < 0.75 ? plausible(random, field, placeholder) : hostileValue(random, placeholder);
    }
  }
  if (random() < 0.05) fields[pick(random, ['extra', 'v2', 'y'.repeat(65), 'constructor'])] = 1;
  const request: Record<string, unknown> = { v: 1, id, op, ...fields };
  if (random() < 0.03) request.v = pick(random, [0, 2, '1', undefined]);
  return request;
}

/** The first message matching `test`, once it has come. */
async function until(messages: any[], test: (m: any) => boolean): Promise<any> {
  await waitUntil(() => messages.some(test), 'no such message came', { interval: 1, timeout: 10_000 });
  return messages.find(test);
}

describe('hostile requests through the gateway', () => {
  let dbName: string;
  /** Each op, role and outcome seen over the seeds (`page:put:ok`, `agent:redact:EINVAL`). */
  const outcomes = new Set<string>();
  const closing: { close(): void }[] = [];
  afterEach(async () => {
    for (const c of closing.splice(0)) c.close();
    await deleteDB(dbName);
  });

  for (const seed of [1, 2, 3, 4]) {
    it(`answers each of ${REQUESTS} generated requests once, in order, with a clear error or a result, and a refusal changes nothing (seed ${seed})`, async function () {
      this.timeout(120_000);
      dbName = `hostile-${crypto.randomUUID()}`;
      const db = await openVaultDb(dbName);
      const vault = await Vault.open({ db, config });
      closing.push(vault, db);
      const parent = {};
      const win = { parent, location: { ancestorOrigins: undefined } } as unknown as Window;
      const gateway = new Gateway(vault, [NS], win);
      const logged: string[] = [];
      const consoleError = console.error;
      console.error = (...args: unknown[]) => {
        logged.push(args.map(String).join(' '));
        consoleError(...args);
      };
      try {
        const sides = await Promise.all((['page', 'agent'] as const).map(async (role) => ({ role, ...(await helloPort(gateway, parent, NS, role)) })));
        const page = sides[0]!;
        page.port.postMessage({ v: 1, id: 1, op: 'put', name: 'HOSTILE_CANARY', value: canary('hostile') });
        const { placeholder } = await until(page.messages, (m) => m.id === 1);
        const snapshot = async () => JSON.stringify([await vault.reads.list(NS), await vault.reads.status(NS)]);

        const random = prng(seed);
        let id = 100;
        for (let i = 0; i < REQUESTS; i++) {
          const before = await snapshot();
          const request = hostileRequest(random, ++id, placeholder);
          // Mostly the port of the op's role, sometimes the other.
          const own = AGENT_OPS.includes(request.op as string) ? sides[1]! : sides[0]!;
          const side = random() < 0.85 ? own : pick(random, sides);
          const transfer: MessagePort[] = [];
          if (request.op === 'forward' && random() < 0.7) transfer.push(new MessageChannel().port1);
          if (random() < 0.05) request.id = pick(random, ['7', 1.5, -0.5, undefined, 2 ** 53]);
          const expectsReply = Number.isSafeInteger(request.id);
          side.port.postMessage(request, transfer);
          // A request without a usable id gets no reply: a request behind it shows the queue went past it.
          const probe = ++id;
          side.port.postMessage({ v: 1, id: probe, op: side.role === 'page' ? 'status' : 'redact', ...(side.role === 'agent' && { texts: [] }) });
          await until(side.messages, (m) => m.id === probe);
          // Events carry no id: a reply is a message with the request's id.
          const isReply = (m: any) => Object.hasOwn(m, 'id') && Object.is(m.id, request.id);
          const replies = side.messages.filter(isReply);
          expect(replies.length, `replies to ${JSON.stringify(request.op)}`).to.equal(expectsReply ? 1 : 0);
          if (!expectsReply) continue;
          expect(side.messages.findIndex(isReply)).to.be.below(side.messages.findIndex((m) => m.id === probe));
          const reply = replies[0]!;
          expect(reply.v).to.equal(1);
          outcomes.add(`${side.role}:${String(request.op)}:${reply.error ? reply.error.code : 'ok'}`);
          if (reply.error) {
            expect(CODES, JSON.stringify(reply.error)).to.include(reply.error.code);
            expect(reply.error.message, `${String(request.op)} threw`)
              .to.be.a('string')
              .and.not.equal(CATCH_ALL);
            expect(reply.error.message.length, 'an error message stays short').to.be.below(300);
            expect(await snapshot(), `${String(request.op)} was refused and changed something`).to.equal(before);
          }
        }
        expect(
          logged.filter((line) => line.includes('failed (')),
          'an op threw something not a VaultError',
        ).to.deep.equal([]);
        expect(findCanaries(sides.flatMap((s) => s.messages)), 'a value crossed a port').to.deep.equal([]);
        expect(findCanaries(logged), 'a value reached the console').to.deep.equal([]);
      } finally {
        console.error = consoleError;
      }
    });
  }

  it('reaches past the parsers: the generated requests were also carried out, not only refused', () => {
    for (const done of [
      'page:put:ok',
      'page:seal:ok',
      'page:forward:ok',
      'page:sealed:ok',
      'page:remove:ok',
      'agent:redact:ok',
      'agent:push:ok',
      'agent:endpoints:ok',
      'agent:records:ok',
      'agent:grant:ok',
    ]) {
      expect([...outcomes]).to.include(done);
    }
  });
});
