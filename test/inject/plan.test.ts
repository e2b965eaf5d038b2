// The one decision over a prepared plan, routed as `forward` routes it, on 6,000 seeded requests
// built from parts, against a small reference of the check order written here (docs/injector.md):
// it decides from how each request was built (which placeholder sits in which header, the exit's
// traits, the lock), never by reading the head. Each route's order is stated once below.
import { expect } from '@open-wc/testing';
import type { ExitName, RawTraits, RequestHead } from '../../src/contract.ts';
import { prng } from '../helpers/random.ts';
import { type ForwardInput, type InjectRecord, type PolicyRule, routed } from './decisions.ts';

const NOW = 1_800_000_000_000;
const ph = (n: number) => `fnox_proxy_${n.toString(16).padStart(24, '0')}`;
const rec = (name: string, n: number, more: Partial<InjectRecord> = {}): InjectRecord => ({
  name,
  kind: 'secret',
  placeholder: ph(n),
  value: `real-${name.toLowerCase()}-value`,
  ...more,
});
const RECORDS = [
  rec('S', 1),
  rec('T', 2),
  rec('R', 3, { removedAt: NOW - 1 }),
  rec('E', 4, { expiresAt: NOW }),
  rec('G', 5, { kind: 'grant' }),
  rec('M', 6, { kind: 'model', provider: 'openai' }),
  rec('K', 7, { kind: 'mcp', provider: 'https://mcp.example.com/mcp' }),
  rec('X', 8, { kind: 'mcp', provider: 'https://mcp.example.com/mcp', expiresAt: NOW - 1 }),
  rec('N', 9, { kind: 'model', provider: 'anthropic' }),
  rec('CR', 10, { value: 'bad\r\nvalue' }),
];
const BY_NAME = new Map(RECORDS.map((r) => [r.name, r]));
const FOREIGN = ph(0xf00);
const rule = (secret: string, header: string): PolicyRule => ({ secret, domain: 'api.example.com', header, methods: [], paths: ['/p/**'] });
// T is inert (no `[secrets]` entry); every other record has a rule in authorization, S one in x-key too.
const RULES = [...RECORDS.map((r) => rule(r.name, 'authorization')), rule('S', 'x-key')];
const SECRETS = Object.fromEntries(RECORDS.filter((r) => r.name !== 'T').map((r) => [r.name, r.placeholder]));
const MODELS = [{ host: 'api.openai.com', path: '/v1', providers: ['openai'] }];
const MCP = [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['K', 'X'] }];
const URLS = { secret: 'https://api.example.com/p/q', model: 'https://api.openai.com/v1/chat', mcp: 'https://mcp.example.com/mcp/call' } as const;
type Route = keyof typeof URLS;
const KEY_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key'];

/** A header as built: its name, its placeholders in order (a record's name, or `foreign`), and whether it holds a raw CR. */
interface Built {
  name: string;
  tokens: string[];
  cr: boolean;
}
interface Case {
  route: Route;
  headers: Built[];
  exit: ExitName;
  rawTraits: RawTraits;
  locked: boolean;
}

/** One sighting as the reference sees it: the header's index and lower-cased name, and the record. */
type Seen = { at: number; header: string; r: InjectRecord };
const own = (t: string) => BY_NAME.get(t);
/** Header by header, each placeholder where it appears (model and MCP requests read them so). */
const inOrder = (c: Case): Seen[] => c.headers.flatMap((h, at) => h.tokens.flatMap((t) => (own(t) ? [{ at, header: h.name, r: own(t)! }] : [])));
/** Header by header, each distinct placeholder where it first appears, as many times as it does (the rules' reading). */
const grouped = (c: Case): Seen[] =>
  c.headers.flatMap((h, at) =>
    [...new Set(h.tokens)].flatMap((t) => (own(t) ? h.tokens.filter((u) => u === t).map(() => ({ at, header: h.name, r: own(t)! })) : [])),
  );

type Check = (s: Seen, c: Case) => string | null;
const removed: Check = ({ r }) => (r.removedAt !== undefined ? `${r.name} was removed` : null);
const expired: Check = ({ r }) => (r.expiresAt !== undefined && r.expiresAt <= NOW ? `${r.name} expired; refreshing` : null);
const redirects: Check = ({ r, header }, c) =>
  !c.rawTraits.manualRedirects && header !== 'authorization' ? `${r.name} may go only in authorization on an exit that follows redirects` : null;
/** A second sighting of a placeholder, counted over the sightings in the order given. */
function twice(seen: Seen[]): (s: Seen, i: number) => string | null {
  return (s, i) => {
    const first = seen.findIndex((x) => x.r === s.r);
    if (first === i) return null;
    return seen[first].at === s.at ? `${s.r.name} appears twice in one header value` : `${s.r.name} appears in more than one header`;
  };
}
/** The first reason of a stage's checks, sighting by sighting. */
function firstOf(seen: Seen[], c: Case, checks: ((s: Seen, c: Case, i: number) => string | null)[]): string | null {
  for (const [i, s] of seen.entries()) {
    for (const check of checks) {
      const reason = check(s, c, i);
      if (reason) return reason;
    }
  }
  return null;
}

/** The reference: the first refusal's status and reason, in each route's order; null when it is filled in. */
function expected(c: Case): { status: number; reason: string } | null {
  const encoded = c.rawTraits.encodedBodies ? `exit ${c.exit} has encoded bodies, which can't be scrubbed` : null;
  const cr = c.headers.find((h) => h.cr);
  const control = cr ? `header ${cr.name} would contain CR, LF or NUL` : null;
  const stages: (() => string | null)[] = [];
  if (c.route === 'secret') {
    const seen = grouped(c);
    const once = twice(seen);
    stages.push(
      () => encoded,
      () => (seen.length === 0 ? 'no placeholder of this vault' : null),
      () =>
        firstOf(seen, c, [
          removed,
          expired,
          ({ r }) => (r.kind !== 'secret' ? `${r.name} is a ${r.kind} record; rules inject secrets only` : null),
          ({ r }) => (r.name === 'T' ? `${r.name} is inert: /etc/fnox/config.toml doesn't hold its placeholder` : null),
        ]),
      () => (c.locked ? 'vault is locked' : null),
      () =>
        firstOf(seen, c, [
          ({ r, header }) =>
            header === 'authorization' || (r.name === 'S' && header === 'x-key') ? null : `no rule lets ${r.name} go in ${header} to GET api.example.com/p/q`,
        ]),
      () => firstOf(seen, c, [({ r }) => (r.name === 'S' && c.exit !== 'page' ? `S may not use exit ${c.exit}` : null)]),
      () => firstOf(seen, c, [(s, _, i) => once(s, i)]),
      () => firstOf(seen, c, [redirects]),
      () => control,
      () => firstOf(seen, c, [({ r }) => (r.name === 'CR' ? 'header authorization would contain CR, LF or NUL' : null)]),
    );
  } else if (c.route === 'model') {
    const seen = inOrder(c);
    const once = twice(seen);
    stages.push(
      () => (seen.some((s) => s.r.kind === 'model') ? null : 'host is a model or MCP endpoint; the vault never injects there'),
      () => encoded,
      () =>
        firstOf(seen, c, [
          ({ r }) => (r.kind !== 'model' ? 'secrets are never sent to model or MCP endpoints' : null),
          removed,
          expired,
          ({ r }) => (r.name === 'N' ? 'N is a credential of anthropic, not of this endpoint' : null),
          (s, _, i) => once(s, i),
          ({ r, header }) => (KEY_HEADERS.includes(header) ? null : `${r.name} may go only in ${KEY_HEADERS.join(', ')}`),
          redirects,
        ]),
      () => (c.locked ? 'vault is locked' : null),
      () => control,
    );
  } else {
    const seen = inOrder(c);
    const once = twice(seen);
    stages.push(
      () => encoded,
      () =>
        firstOf(seen, c, [
          ({ r }) => (r.kind !== 'mcp' ? 'secrets are never sent to model or MCP endpoints' : null),
          removed,
          expired,
          (s, _, i) => once(s, i),
          redirects,
        ]),
      () => (seen.length > 0 && c.locked ? 'vault is locked' : null),
      () => control,
    );
  }
  for (const stage of stages) {
    const reason = stage();
    if (reason) return { status: reason.startsWith('exit ') ? 502 : 403, reason };
  }
  return null;
}

function generate(random: () => number): Case {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const route = pick(['secret', 'secret', 'model', 'mcp'] as const);
  // Mostly the route's own records, so that requests get far along its checks.
  const likely = { secret: ['S', 'S', 'S', 'CR', 'T'], model: ['M', 'M', 'M', 'N'], mcp: ['K', 'K', 'K', 'X'] }[route];
  const token = () => (random() < 0.7 ? pick(likely) : random() < 0.1 ? 'foreign' : pick(RECORDS).name);
  const headers = Array.from({ length: Math.floor(random() * 3) + (random() < 0.9 ? 1 : 0) }, () => ({
    name: pick(['authorization', 'authorization', 'x-key', 'x-api-key', 'x-other']),
    tokens: Array.from({ length: random() < 0.8 ? 1 : Math.floor(random() * 3) }, token),
    cr: random() < 0.03,
  }));
  return {
    route,
    headers,
    exit: random() < 0.85 ? 'page' : 'proxy',
    rawTraits: { manualRedirects: random() < 0.8, ...(random() < 0.05 && { encodedBodies: true }) },
    locked: random() < 0.05,
  };
}

const headOf = (c: Case): RequestHead => ({
  method: 'GET',
  url: URLS[c.route],
  headers: c.headers.map((h) => [h.name, `${h.cr ? 'x\r' : ''}Bearer ${h.tokens.map((t) => BY_NAME.get(t)?.placeholder ?? FOREIGN).join(' ')}`]),
});

describe('the one decision over a prepared plan', () => {
  it('refuses generated requests for the reason the check order gives, and fills the rest', () => {
    const random = prng(0x43);
    const tally: Record<string, number> = {};
    for (let i = 0; i < 6_000; i++) {
      const c = generate(random);
      const head = headOf(c);
      const input: ForwardInput = {
        head,
        exit: c.exit,
        rawTraits: c.rawTraits,
        locked: c.locked,
        now: NOW,
        records: new Map(RECORDS.map((r) => [r.placeholder, r])),
        foreignPlaceholder: (p) => p === FOREIGN,
        rules: RULES,
        secrets: SECRETS,
        exits: { S: ['page'] },
        refused: [...MODELS, { host: 'mcp.example.com', path: '/mcp' }],
        mcp: MCP,
        models: MODELS,
        known: new Set(['openai', 'anthropic']),
      };
      const d = routed(input);
      const want = expected(c);
      const what = JSON.stringify({ case: c, got: d.inject ? 'filled in' : d.reason });
      const outcome = `${c.route}: ${want ? want.reason.replace(/^[A-Z]+ /, '') : 'filled in'}`;
      tally[outcome] = (tally[outcome] ?? 0) + 1;
      if (want) {
        expect(d, what).to.deep.include({ inject: false, status: want.status, reason: want.reason });
        continue;
      }
      expect(d.inject, what).to.equal(true);
      if (!d.inject) continue;
      expect(d.kind, what).to.equal(c.route);
      // Only the records seen are named, once each, as first met; no value anywhere but the fill.
      const names = [...new Set(c.headers.flatMap((h) => h.tokens).filter((t) => BY_NAME.has(t)))];
      expect(d.names, what).to.deep.equal(names);
      for (const r of RECORDS) expect(JSON.stringify(d), what).not.to.include(r.value);
    }
    console.log(
      `the plan decision: ${Object.keys(tally).length} outcomes, filled in ${['secret', 'model', 'mcp'].map((r) => tally[`${r}: filled in`]).join('/')}`,
    );
    // Every route reaches its fill and most of its refusals.
    for (const route of ['secret', 'model', 'mcp']) expect(tally[`${route}: filled in`], route).to.be.greaterThan(100);
    expect(Object.keys(tally).length).to.be.greaterThan(25);
  });
});
