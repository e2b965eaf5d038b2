// The policy files' limits (README, Limits): nesting checked before parsing by a linear scan (held
// against the parser's own nesting as the reference), rules and paths per file, warnings listed,
// and each file parsed once per SHA-256 in a bounded cache.
import { expect } from '@open-wc/testing';
import TOML from '@ltd/j-toml';
import { MAX_AUDIT_CHANGES, MAX_RULES, MAX_RULE_PATHS, MAX_TOML_DEPTH, POLICY_CACHE_SIZE } from '../../src/limits.ts';
import { checkAttestation } from '../../src/policy/index.ts';
import { mergePolicy, policyOf } from '../../src/policy/index.ts';
import { cachedParses } from '../../src/policy/index.ts';
import { tomlDepth } from '../../src/policy/index.ts';
import { FNOX, SECRETS, attest } from '../helpers/attest.ts';
import { prng } from '../helpers/random.ts';

const P = 'fnox_proxy_0123456789abcdef01234567';
const SECRETS_TABLE = `[secrets]\nGH = { provider = "seven", value = "${P}" }\n`;
const rule = (i: number, paths = '') => `[[proxy.rules]]\nsecret = "GH"\ndomain = "h${i}.example"\n${paths}`;

/** The reference: how deep the parser's own result nests tables and arrays below the root. */
function parsedDepth(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(parsedDepth));
  if (v && typeof v === 'object' && !(v instanceof Date) && Object.getPrototypeOf(v) !== Date.prototype) {
    const inner = Object.values(v).map(parsedDepth);
    return 1 + Math.max(0, ...inner);
  }
  return 0;
}
const referenceDepth = (text: string) => parsedDepth(TOML.parse(text, { joiner: '\n', bigint: false })) - 1;

/** A random TOML document nesting `depth` deep, written in one of the ways TOML nests. */
function nested(random: () => number, depth: number): string {
  const style = Math.floor(random() * 5);
  const tricky = random() < 0.5 ? ' # a [ comment { with . dots\n' : '\n';
  const str = random() < 0.5 ? '"a.b[c]{d}"' : "'''x.y\n[z]'''";
  switch (style) {
    case 0:
      return `a = ${'['.repeat(depth)}${str}${']'.repeat(depth)}${tricky}`;
    case 1:
      return `a = ${'{ b = '.repeat(depth - 1)}{ c = ${str} }${' }'.repeat(depth - 1)}${tricky}`;
    case 2:
      return `${Array.from({ length: depth }, (_, i) => `k${i}`).join('.')} = ${str}${tricky}`;
    case 3:
      return `[${Array.from({ length: depth }, (_, i) => `t${i}`).join('.')}]${tricky}v = 1.5\n`;
    default: {
      const half = Math.max(1, Math.floor(depth / 2));
      return `[${Array.from({ length: half }, (_, i) => `t${i}`).join('.')}]\nx = ${'[\n'.repeat(depth - half)}1.25${'\n]'.repeat(depth - half)}${tricky}`;
    }
  }
}

describe('policy files are bounded', () => {
  it('the nesting scan never counts less than the parser builds', () => {
    const random = prng(17);
    for (let i = 0; i < 300; i++) {
      const depth = 1 + Math.floor(random() * 20);
      const text = nested(random, depth);
      const reference = referenceDepth(text);
      expect(tomlDepth(text, 1000), text).to.be.at.least(reference);
      expect(tomlDepth(text, 1000), text).to.be.at.most(reference + 1);
    }
  });

  it('takes nesting 32 deep and refuses 33, before parsing, naming the limit', async () => {
    for (const depth of [MAX_TOML_DEPTH, MAX_TOML_DEPTH + 1]) {
      const text = `${SECRETS_TABLE}x = ${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}\n`;
      const verdict = await checkAttestation(await attest(FNOX, text));
      if (depth === MAX_TOML_DEPTH) expect(verdict.trusted, JSON.stringify(verdict)).to.equal(true);
      else expect(verdict).to.include({ trusted: false, reason: 'bytes are nested deeper than 32 tables and arrays' });
    }
  });

  it('refuses 200,000 levels of nesting, its scan stopping at the first level past the limit', async () => {
    const text = `x = ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`;
    expect(tomlDepth(text, MAX_TOML_DEPTH)).to.equal(MAX_TOML_DEPTH + 1);
    const verdict = await checkAttestation(await attest(SECRETS, text));
    expect(verdict).to.include({ trusted: false, reason: 'bytes are nested deeper than 32 tables and arrays' });
  });

  it('takes 4,096 rules and refuses 4,097', async () => {
    const rules = (n: number) => SECRETS_TABLE + Array.from({ length: n }, (_, i) => rule(i)).join('');
    const at = await checkAttestation(await attest(FNOX, rules(MAX_RULES)));
    expect(at.trusted).to.equal(true);
    const past = await checkAttestation(await attest(FNOX, rules(MAX_RULES + 1)));
    expect(past).to.include({ trusted: false, reason: 'has 4097 rules; at most 4096 are read' });
  });

  it('takes 256 paths in a rule and refuses 257, deduplicating them in order', async () => {
    const paths = (n: number) => `paths = [${Array.from({ length: n }, (_, i) => `"/p${i % 200}"`).join(', ')}]\n`;
    const at = await checkAttestation(await attest(FNOX, SECRETS_TABLE + rule(0, paths(MAX_RULE_PATHS))));
    expect(at.trusted).to.equal(true);
    const stored = {
      namespace: 'n',
      accepted: { [FNOX]: { sha256: (at as { sha256: string }).sha256, text: (at as { text: string }).text } },
      files: [],
      audited: {},
    };
    expect(policyOf(stored).config!.rules[0]!.paths).to.deep.equal(Array.from({ length: 200 }, (_, i) => `/p${i}`));
    const past = await checkAttestation(await attest(FNOX, SECRETS_TABLE + rule(0, paths(MAX_RULE_PATHS + 1))));
    expect(past).to.include({ trusted: false, reason: 'proxy.rules[0] has more than 256 paths' });
  });

  it('lists 100 warnings per file, then how many more', async () => {
    const broken = (n: number) => SECRETS_TABLE + Array.from({ length: n }, (_, i) => `[[proxy.rules]]\nsecret = "NOPE${i}"\ndomain = "a.example"\n`).join('');
    const at = await checkAttestation(await attest(FNOX, broken(100)));
    const read = (v: typeof at) =>
      policyOf({
        accepted: { [FNOX]: { sha256: (v as { sha256: string }).sha256, text: (v as { text: string }).text } },
        files: [],
        audited: {},
      });
    expect(read(at).config!.warnings).to.have.length(100);
    const past = await checkAttestation(await attest(FNOX, broken(250)));
    const warnings = read(past).config!.warnings;
    expect(warnings).to.have.length(101);
    expect(warnings[100]).to.equal('/etc/fnox/config.toml: and 150 more');
  });

  it('audits the first 100 changes of a file, then counts the rest', async () => {
    const rules = (n: number) => SECRETS_TABLE + Array.from({ length: n }, (_, i) => rule(i)).join('');
    const empty = { namespace: 'n', accepted: {}, files: [], audited: {} };
    const auditOf = async (n: number) => {
      const verdict = await checkAttestation(await attest(FNOX, rules(n)));
      return mergePolicy(empty, [{ given: FNOX, verdict }]).audit[0]!;
    };
    const at = await auditOf(MAX_AUDIT_CHANGES);
    expect(at.changes).to.have.length(MAX_AUDIT_CHANGES);
    expect(at).to.not.have.property('changesMore');
    const past = await auditOf(MAX_RULES);
    expect(past.changes).to.have.length(MAX_AUDIT_CHANGES);
    expect(past.changes[99]).to.deep.include({
      what: 'rule',
      change: 'added',
      secret: 'GH',
      rule: { domain: 'h99.example', header: 'authorization', methods: [], paths: [] },
    });
    expect(past.changesMore).to.equal(MAX_RULES - MAX_AUDIT_CHANGES);
  });

  it('parses each file once per SHA-256, and keeps a bounded number of parses', async () => {
    const text = `${SECRETS_TABLE}${rule(1)}`;
    const verdict = await checkAttestation(await attest(FNOX, text));
    const stored = { namespace: 'n', accepted: { [FNOX]: { sha256: (verdict as { sha256: string }).sha256, text } }, files: [], audited: {} };
    // The accepted policy reads the very parse the attestation check made.
    expect(policyOf(stored).config).to.equal(policyOf(stored).config);
    for (let i = 0; i < POLICY_CACHE_SIZE * 3; i++) await checkAttestation(await attest(SECRETS, `[limits]\nshell_per_day = ${i + 1}\n`));
    expect(cachedParses()).to.equal(POLICY_CACHE_SIZE);
  });
});

describe('many distinct policies accepted one after another', function () {
  this.timeout(120_000);

  it('keep the heap flat: the vault holds what is in effect and a bounded cache of parses (Chromium only)', async () => {
    const { deleteDB } = await import('idb');
    const { executeServerCommand } = await import('@web/test-runner-commands');
    const { Vault } = await import('../../src/core/index.ts');
    const { openVaultDb } = await import('../../src/store/index.ts');
    const heap = () => executeServerCommand('window', { action: 'heap' }) as Promise<number>;
    const dbName = `policy-heap-${crypto.randomUUID()}`;
    const db = await openVaultDb(dbName);
    const vault = await Vault.open({ db, config: { name: 'test', passphraseIterations: 600_000, requestLifetimeMs: 300_000 } });
    try {
      const ns = 'https://seven.sliccy.ai';
      await vault.served.serve(ns);
      // Each config is about 80 KB of TOML, 1,000 rules: a parse of a few hundred KB.
      const config = (n: number) => SECRETS_TABLE + Array.from({ length: 1000 }, (_, i) => rule(i, `paths = ["/v${n}/**"]\n`)).join('');
      const accept = async (n: number) => {
        const attestation = await attest(FNOX, config(n));
        const result = await vault.writes.applyPolicy(ns, [{ path: FNOX, attestation }]);
        expect(result.accepted).to.equal(true);
      };
      for (let n = 0; n < 20; n++) await accept(n);
      const before = await heap();
      for (let n = 20; n < 80; n++) await accept(n);
      const after = await heap();
      expect(cachedParses()).to.be.at.most(POLICY_CACHE_SIZE);
      // Sixty more distinct parses of a few hundred KB each would be tens of MiB if they stayed.
      expect((after - before) / (1 << 20), 'MiB the heap grew over 60 more distinct policies').to.be.below(8);
    } finally {
      vault.close();
      db.close();
      await deleteDB(dbName);
    }
  });
});
