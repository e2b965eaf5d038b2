// Audit text passes the scrubber (README, Records: audit): every string of an entry that a program,
// the agent, a URL or a file supplied is scrubbed before it is stored, in every entry type, and
// withheld by a document that has no scrubber. Generated entries against a reference that knows,
// per entry type, which fields are the vault's own; then the entries written by the purge, an
// unreadable record and a document locked since it opened, on real IndexedDB and WebCrypto.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import type { AuditEntry, Stamp } from '../../src/contract.ts';
import { Vault } from '../../src/core/index.ts';
import { compileScrubber } from '../../src/scrub/index.ts';
import { answerSealed } from '../../src/sealed/index.ts';
import { type AuditDraft, type VaultDb, openVaultDb } from '../../src/store/index.ts';
import { WITHHELD, scrubAudit } from '../../src/store/audit.ts';
import { prng } from '../helpers/random.ts';
import { PURGE_AFTER_MS } from '../../src/limits.ts';

const NS = 'https://seven.sliccy.ai';
const config = { name: 'SLICC vault (test)', passphraseIterations: 600_000, requestLifetimeMs: 300_000 };

/** A field of a generated entry: another's text (`t`), the vault's own word (`w`), a list or an object of them. */
type Shape = 't' | 'w' | Shape[] | { [field: string]: Shape };
const rule: Shape = { domain: 't', header: 't', methods: ['t'], paths: ['t', 't'] };
/** Every entry type as the contract (src/contract.ts) defines it; `w` where the vault wrote the string itself. */
const SHAPES: Record<string, { [field: string]: Shape }> = {
  forward: { type: 'w', name: 't', tag: 't', domain: 't', method: 't', path: 't', rule, exit: 't' },
  mcp: { type: 'w', name: 't', tag: 't', server: 't', domain: 't', method: 't', path: 't', exit: 't' },
  model: { type: 'w', name: 't', provider: 't', domain: 't', path: 't', exit: 't' },
  materialize: { type: 'w', name: 't', tag: 't', variable: 't', exec: 'w', kind: 'w', argv: ['t', 't', 't'], refused: 't' },
  seal: { type: 'w', name: 't', tag: 't', kind: 'w', source: 't' },
  remove: { type: 'w', name: 't', tag: 't' },
  restore: { type: 'w', name: 't', tag: 't' },
  purge: { type: 'w', name: 't' },
  unreadable: { type: 'w', name: 't' },
  policy: {
    type: 'w',
    path: 't',
    sha256: 'w',
    changes: [
      { what: 'w', change: 'w', secret: 't', rule },
      { what: 'w', secret: 't', from: ['t'], to: ['t'] },
      { what: 'w', limit: 't' },
    ],
    warning: 't',
  },
  endpoints: { type: 'w', change: 'w', model: ['t', 't'], mcp: [{ server: 't', url: 't', names: ['t'] }] },
  export: { type: 'w' },
  import: { type: 'w', source: 'w' },
};

const values = Array.from({ length: 6 }, (_, i) => ({
  name: `V${i}`,
  placeholder: `fnox_proxy_${i.toString(16).padStart(24, '0')}`,
  // Upper-case and digits: the filler below, lower-case, never joins one to make another.
  value: `VALUE${i}${'ABCDEFGH'.slice(0, 3 + i)}`,
}));
const scrubber = compileScrubber(values);
const text = (s: string) => scrubber.redact(s).text;

/** A generated string: filler and values; answers it and what the scrubber should leave of it. */
function generated(random: () => number, vault: boolean): { sent: string; scrubbed: string } {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  let sent = '';
  let scrubbed = '';
  for (let n = Math.floor(random() * 4); n >= 0; n--) {
    if (random() < 0.5) {
      const v = pick(values);
      sent += v.value;
      scrubbed += v.placeholder;
    } else {
      const filler = pick(['', 'x', 'gh', ' ', 'api.example.com/', 'añ🔑', 'abcdefghijk']);
      sent += filler;
      scrubbed += filler;
    }
  }
  return { sent, scrubbed: vault ? sent : scrubbed };
}

const utf8 = (s: string) => new TextEncoder().encode(s).length;

/** An entry of that shape, what scrubbing should store, and what withholding should. */
function entryOf(random: () => number, type: string) {
  const build = (shape: Shape): [unknown, unknown, unknown] => {
    if (shape === 't' || shape === 'w') {
      const { sent, scrubbed } = generated(random, shape === 'w' || type === 'import' || type === 'export');
      const withheld = shape === 'w' || type === 'import' || type === 'export' || utf8(sent) < 8 ? sent : WITHHELD;
      return [sent, scrubbed, withheld];
    }
    if (Array.isArray(shape)) {
      const built = shape.map(build);
      return [built.map((b) => b[0]), built.map((b) => b[1]), built.map((b) => b[2])];
    }
    const built = Object.entries(shape).map(([k, s]) => [k, build(s)] as const);
    return [0, 1, 2].map((i) => Object.fromEntries(built.map(([k, b]) => [k, b[i]]))) as [unknown, unknown, unknown];
  };
  const [sent, scrubbed, withheld] = build(SHAPES[type]!) as AuditDraft[];
  for (const e of [sent, scrubbed, withheld]) e!.type = type as AuditEntry['type'];
  // An accepted policy file is root-owned and attested: a document without a scrubber keeps it as read.
  const kept = type === 'policy' && sent!.accepted === true ? sent : withheld;
  return { sent: { ...sent!, seq: 1, uid: 1000 }, scrubbed: { ...scrubbed!, seq: 1, uid: 1000 }, withheld: { ...kept!, seq: 1, uid: 1000 } };
}

describe("an audit entry's text", () => {
  it('is stored scrubbed in every field but the vault\u2019s own words, at any depth, in every entry type (3 seeds of 200)', () => {
    for (const seed of [41, 42, 43]) {
      const random = prng(seed);
      for (let round = 0; round < 200; round++) {
        const type = Object.keys(SHAPES)[round % Object.keys(SHAPES).length]!;
        const { sent, scrubbed } = entryOf(random, type);
        expect(scrubAudit(sent, text), JSON.stringify({ seed, round, sent })).to.deep.equal(scrubbed);
      }
    }
  });

  it('keeps an accepted policy file\u2019s changes as read without a scrubber, and withholds a refused one\u2019s path and warning', () => {
    const change = { what: 'rule', change: 'added', secret: 'GITHUB_TOKEN', rule: { host: 'api.github.com', paths: ['/repos/**'] } };
    const accepted = { type: 'policy', path: '/etc/fnox/config.toml', sha256: 'ab'.repeat(32), accepted: true, changes: [change] } as AuditDraft;
    expect(scrubAudit(accepted, null)).to.deep.equal(accepted);
    const refused = {
      type: 'policy',
      path: '/home/user/config.toml',
      sha256: 'ab'.repeat(32),
      accepted: false,
      changes: [],
      warning: 'not root-owned',
    } as AuditDraft;
    expect(scrubAudit(refused, null)).to.deep.include({ path: WITHHELD, warning: WITHHELD, accepted: false });
  });

  it('is withheld without a scrubber, but for the vault\u2019s own words and text too short to hold a value (3 seeds of 200)', () => {
    for (const seed of [51, 52, 53]) {
      const random = prng(seed);
      for (let round = 0; round < 200; round++) {
        const type = Object.keys(SHAPES)[round % Object.keys(SHAPES).length]!;
        const { sent, withheld } = entryOf(random, type);
        expect(scrubAudit(sent, null), JSON.stringify({ seed, round, sent })).to.deep.equal(withheld);
      }
    }
  });
});

describe('the audit entries a document writes of itself', () => {
  let dbName = '';
  let db: VaultDb;
  let clock = Date.now();
  const vaults: Vault[] = [];
  const open = async () => {
    const vault = await Vault.open({ db, config, now: () => clock });
    vaults.push(vault);
    return vault;
  };
  const entries = async (vault: Vault, type: string) => (await vault.reads.audit(NS, Number.MAX_SAFE_INTEGER, 1000)).audit.filter((e) => e.type === type);
  /** OTHER holding a value shaped as a record name, and a record named by it. */
  async function namedByValue(vault: Vault) {
    const value = `tok_${crypto.randomUUID().replaceAll('-', '')}`;
    const { placeholder } = await vault.writes.put(NS, { name: 'OTHER', value, kind: 'secret', source: 'settings' });
    await vault.writes.put(NS, { name: value, value: `held-${crypto.randomUUID()}`, kind: 'secret', source: 'settings' });
    return { value, placeholder };
  }

  beforeEach(async () => {
    dbName = `audit-text-test-${crypto.randomUUID()}`;
    db = await openVaultDb(dbName);
    clock = Date.now();
  });
  afterEach(async () => {
    for (const vault of vaults.splice(0)) vault.close();
    db.close();
    await deleteDB(dbName);
  });

  /** A vault whose FIRST value is compiled, and a count of the writes that wait for a compile after it. */
  async function compiledThenCounted() {
    const vault = await open();
    await vault.writes.put(NS, { name: 'FIRST', value: `first-${crypto.randomUUID()}`, kind: 'secret', source: 'settings' });
    await vault.reads.scrubber(NS);
    const counted = { vault, waited: 0 };
    const newest = vault.reads.newestScrubber.bind(vault.reads);
    vault.reads.newestScrubber = (namespace) => {
      counted.waited++;
      return newest(namespace);
    };
    return counted;
  }

  it("stores a write's name scrubbed of a value written just before it, without waiting for the worker's compile", async () => {
    // OTHER's value is written after the last compile: the next write's audit scrubs it beside that
    // compile, and neither write waits for a new one.
    const counted = await compiledThenCounted();
    const { vault } = counted;
    const { value, placeholder } = await namedByValue(vault);
    expect(counted.waited, 'writes that waited for a compile').to.equal(0);
    const seals = await entries(vault, 'seal');
    expect(seals.map((e) => (e as { name: string }).name)).to.deep.equal([placeholder, 'OTHER', 'FIRST']);
    expect(JSON.stringify(seals)).to.not.include(value);
  });

  it('never waits for a compile in a burst of 200 writes, and scrubs a name holding the hex of a value written in it', async () => {
    const counted = await compiledThenCounted();
    const { vault } = counted;
    const burst = Array.from({ length: 200 }, (_, i) => ({ name: `B${i}`, value: `tok_${crypto.randomUUID().replaceAll('-', '')}` }));
    for (const { name, value } of burst) await vault.writes.put(NS, { name, value, kind: 'secret', source: 'settings' });
    // A name (hex digits only) spelling the last value's hex: at once, before any compile has it.
    const last = burst.at(-1)!;
    const hex = Array.from(new TextEncoder().encode(last.value), (b) => b.toString(16).padStart(2, '0')).join('');
    await vault.writes.put(NS, { name: hex, value: `held-${crypto.randomUUID()}`, kind: 'secret', source: 'settings' });
    expect(counted.waited, 'writes that waited for a compile').to.equal(0);
    const [newestSeal] = await entries(vault, 'seal');
    expect((newestSeal as { name: string }).name).to.equal('[redacted:B199]');
  });

  it('withholds a name where a value compiled and a value written since overlap, rather than release a part of either', async () => {
    const vault = await open();
    const tail = crypto.randomUUID().replaceAll('-', '').slice(0, 12);
    await vault.writes.put(NS, { name: 'FIRST', value: `first_${tail}`, kind: 'secret', source: 'settings' });
    await vault.reads.scrubber(NS);
    await vault.writes.put(NS, { name: 'LATER', value: `${tail}_later`, kind: 'secret', source: 'settings' });
    await vault.writes.put(NS, { name: `first_${tail}_later`, value: `held-${crypto.randomUUID()}`, kind: 'secret', source: 'settings' });
    const [newestSeal] = await entries(vault, 'seal');
    expect(newestSeal).to.deep.include({ name: WITHHELD });
  });

  it("stores a purged record's name scrubbed", async () => {
    const vault = await open();
    const { value, placeholder } = await namedByValue(vault);
    await vault.writes.remove(NS, value);
    await vault.reads.scrubber(NS);
    clock += PURGE_AFTER_MS + 1;
    await vault.writes.purge();
    const [purged] = await entries(vault, 'purge');
    expect(purged).to.deep.include({ name: placeholder });
    expect(JSON.stringify(await entries(vault, 'purge'))).to.not.include(value);
  });

  it("stores an unreadable record's name scrubbed", async () => {
    const writer = await open();
    const { value, placeholder } = await namedByValue(writer);
    const stored = (await db.getFromIndex('records', 'byName', [NS, value]))!;
    await db.put('records', { ...stored, ciphertext: crypto.getRandomValues(new Uint8Array(stored.ciphertext.byteLength)).buffer });
    writer.close();
    const vault = await open();
    await vault.served.serve(NS);
    await vault.reads.scrubber(NS);
    const found = await entries(vault, 'unreadable');
    expect(found.map((e) => (e as { name: string }).name)).to.deep.equal([placeholder]);
  });

  it('withholds the text of a document locked since it opened, and keeps it where the namespace holds no value', async () => {
    const writer = await open();
    const { value, placeholder } = await namedByValue(writer);
    writer.close();
    // No key slot opens by itself now: the next document opens locked and never compiles.
    await db.delete('keys', 'device');
    const vault = await open();
    expect(vault.locked).to.equal(true);
    const stamp = (tag: string): Stamp => ({ pid: 7, ppid: 1, uid: 1000, gid: 1000, tag, exec: { kind: 'exec', argv: ['/usr/bin/env', value] } });
    const env = { [value]: placeholder };
    expect(((await answerSealed(vault, NS, { op: 'materialize', env }, stamp(`run ${value}`))) as { error?: unknown }).error).to.be.an('object');
    const [locked] = await entries(vault, 'materialize');
    expect(locked).to.deep.include({ name: 'OTHER', variable: WITHHELD, tag: WITHHELD, exec: false, kind: 'exec', argv: [], argvCut: true });
    expect(((await answerSealed(vault, 'https://empty.sliccy.ai', { op: 'materialize', env }, stamp('gh'))) as { error?: unknown }).error).to.be.an('object');
    const [empty] = (await vault.reads.audit('https://empty.sliccy.ai')).audit;
    expect(empty).to.deep.include({ name: value, variable: value, tag: 'gh', argv: ['/usr/bin/env', value] });
  });
});
