// `materialize` through the real frame (README, Exec), as bios relays it from the kernel's exec:
// the values `[exec]` allows go to the exec in the reply and nowhere else; a refusal reveals
// nothing and is audited; the limits are EINVAL naming them; the rates of `[limits]` hold across
// two documents and a reload, and free when their window has passed.
import { expect, waitUntil } from '@open-wc/testing';
import type { Stamp } from '../../src/contract.ts';
import { SECRETS, attest } from '../helpers/attest.ts';
import { type VaultClient, advanceClock, auditedWithout, canary, canaryName, crossed, findCanaries, resetVault, welcomed } from '../helpers/vault.ts';

const gh = ['/usr/bin/gh', 'release', 'upload', 'v1.2.3', 'dist.tgz'];
const kernel = (argv: string[] = gh, kind: 'exec' | 'shell' = 'exec', uid = 1000): Stamp => ({
  pid: 77,
  ppid: 1,
  uid,
  gid: uid,
  tag: 'fnox',
  exec: { kind, argv },
});

async function sealed(page: VaultClient, req: unknown, stamp: Stamp) {
  const reply = await page.request('sealed', { req, stamp });
  expect(reply.op, JSON.stringify(reply)).to.equal('sealed');
  return reply.reply;
}

/** A page with GH_TOKEN and NPM_TOKEN put, and a secrets-policy.toml of `policy` accepted. */
async function withSecrets(policy: string, path?: string) {
  const page = await welcomed(path ? { path } : {});
  const gh = canary('gh');
  const npm = canary('npm');
  const GH = (await page.request('put', { name: 'GH_TOKEN', value: gh })).placeholder;
  const NPM = (await page.request('put', { name: 'NPM_TOKEN', value: npm })).placeholder;
  expect((await page.request('policy', { files: [await attest(SECRETS, policy)] })).accepted, 'the policy was accepted').to.equal(true);
  return { page, values: { gh, npm }, placeholders: { GH, NPM } };
}

/** Resolves after `n` turns of the event loop, which the vault's documents share with this page. */
async function turns(n: number) {
  for (let i = 0; i < n; i++) {
    await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      channel.port2.postMessage(null);
    });
  }
}

const LINES = '[exec]\nGH_TOKEN = { argv = [["/usr/bin/gh", "release"]] }\nNPM_TOKEN = true\n';

describe('materialize', () => {
  beforeEach(resetVault);

  it("reveals to the kernel's exec the values its [exec] lines allow, in that reply only, and audits each as revealed", async () => {
    const { page, values, placeholders } = await withSecrets(LINES);
    const reply = await sealed(page, { op: 'materialize', env: { GITHUB_TOKEN: placeholders.GH, NODE_AUTH_TOKEN: placeholders.NPM } }, kernel());
    expect(reply).to.deep.equal({ env: { GITHUB_TOKEN: values.gh, NODE_AUTH_TOKEN: values.npm }, revealed: ['GH_TOKEN', 'NPM_TOKEN'] });
    const { list } = await page.request('list');
    const reveals = list.audit.filter((e: { type: string }) => e.type === 'materialize');
    expect(reveals.map((e: Record<string, unknown>) => [e.name, e.variable, e.exec, e.kind, e.uid, e.tag, e.refused])).to.have.deep.members([
      ['GH_TOKEN', 'GITHUB_TOKEN', 'argv', 'exec', 1000, 'fnox', undefined],
      ['NPM_TOKEN', 'NODE_AUTH_TOKEN', 'any', 'exec', 1000, 'fnox', undefined],
    ]);
    expect(reveals[0].argv).to.deep.equal(gh);
    expect(list.secrets.find((s: { name: string }) => s.name === 'GH_TOKEN').usedAt).to.be.a('number');
    // The values crossed the port in the materialize reply and nowhere else.
    const others = crossed.filter((m) => (m as { reply?: unknown }).reply !== reply);
    expect(findCanaries(others), 'a revealed value in another message').to.deep.equal([]);
  });

  it('refuses the whole exec for one variable it may not have, reveals nothing, and audits the refusal of each variable', async () => {
    const { page, placeholders } = await withSecrets(LINES);
    const before = crossed.length;
    const reply = await sealed(
      page,
      { op: 'materialize', env: { NPM: placeholders.NPM, GITHUB_TOKEN: placeholders.GH } },
      kernel(['/usr/bin/../bin/gh', 'release']),
    );
    expect(reply).to.deep.equal({ error: { code: 'EACCES', message: 'GH_TOKEN may not be revealed to this program: [exec] lists other argv prefixes' } });
    const { list } = await page.request('list');
    const reveals = list.audit.filter((e: { type: string }) => e.type === 'materialize');
    expect(reveals.map((e: { name: string; refused: string }) => [e.name, e.refused])).to.have.deep.members([
      ['NPM_TOKEN', 'GH_TOKEN may not be revealed to this program: [exec] lists other argv prefixes'],
      ['GH_TOKEN', 'GH_TOKEN may not be revealed to this program: [exec] lists other argv prefixes'],
    ]);
    expect(findCanaries(crossed.slice(before)), 'a value crossed the port').to.deep.equal([]);
  });

  it("answers ENOENT for a placeholder of no record here, another namespace's included, and EACCES for a shell under argv", async () => {
    const { page, placeholders } = await withSecrets(LINES);
    const other = await welcomed({ embedder: (await import('../helpers/origins.ts')).origins.other });
    const theirs = (await other.request('put', { name: 'GH_TOKEN', value: canary('theirs') })).placeholder;
    expect(await sealed(page, { op: 'materialize', env: { T: theirs } }, kernel())).to.deep.equal({
      error: { code: 'ENOENT', message: "T's placeholder is not of this vault" },
    });
    expect((await sealed(page, { op: 'materialize', env: { T: placeholders.GH } }, kernel(['/bin/bash'], 'shell'))).error).to.deep.equal({
      code: 'EACCES',
      message: 'GH_TOKEN may not be revealed to a shell: [exec] allows only the programs it lists',
    });
  });

  it("needs the kernel's exec in the stamp, and answers each limit EINVAL naming it", async () => {
    const { page, placeholders } = await withSecrets(LINES);
    const { exec: _, ...bare } = kernel();
    expect(await sealed(page, { op: 'materialize', env: { T: placeholders.GH } }, bare)).to.deep.equal({
      error: { code: 'EINVAL', message: "materialize needs the kernel's exec in the stamp" },
    });
    const env33 = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`V${i}`, placeholders.GH]));
    expect((await sealed(page, { op: 'materialize', env: env33 }, kernel())).error).to.deep.equal({
      code: 'EINVAL',
      message: 'env must name at most 32 variables',
    });
    expect((await sealed(page, { op: 'materialize', env: { 'NOT-A-NAME': placeholders.GH } }, kernel())).error.code).to.equal('EINVAL');
    expect((await sealed(page, { op: 'materialize', env: { T: canary('not a placeholder') } }, kernel())).error).to.deep.equal({
      code: 'EINVAL',
      message: 'env.T must be a placeholder',
    });
    expect((await sealed(page, { op: 'materialize', env: {} }, kernel())).error.message).to.equal('env must name at least one variable');
    // The stamp is bios's: its exec past a limit is a port error.
    const port = async (exec: unknown) =>
      (await page.request('sealed', { req: { op: 'materialize', env: { T: placeholders.GH } }, stamp: { ...bare, exec } })).error;
    expect(await port({ kind: 'exec', argv: Array.from({ length: 257 }, () => 'a') })).to.deep.equal({
      code: 'EINVAL',
      message: 'stamp.exec.argv must hold 1 to 256 elements',
    });
    expect(await port({ kind: 'exec', argv: ['/usr/bin/gh', 'x'.repeat(64 * 1024)] })).to.deep.equal({
      code: 'EINVAL',
      message: 'stamp.exec.argv must be at most 64 KiB in all',
    });
    expect(await port({ kind: 'spawn', argv: ['/usr/bin/gh'] })).to.deep.equal({ code: 'EINVAL', message: 'stamp.exec.kind must be exec or shell' });
    expect(await port({ kind: 'exec', argv: [] })).to.deep.equal({ code: 'EINVAL', message: 'stamp.exec.argv must hold 1 to 256 elements' });
  });

  it('never reveals a value after another document removed it: a reveal written is audited before the removal, or the exec is refused', async () => {
    // The rate of [limits] is not what this race is about: with the default of 10 a minute, the
    // eleventh reveal that wins its race is refused EAGAIN by it.
    const { page } = await withSecrets(`${LINES}[limits]\nmaterialize_per_minute = 100\n`);
    const other = await welcomed();
    let last = -1;
    // Twelve races of a materialize in one document against a remove in another, sent at once.
    for (let round = 0; round < 12; round++) {
      if (round > 0) await page.request('restore', { name: 'NPM_TOKEN' });
      const { placeholder } = await page.request('put', { name: 'NPM_TOKEN', value: canary('npm') });
      const [reply] = await Promise.all([
        sealed(page, { op: 'materialize', env: { NODE_AUTH_TOKEN: placeholder } }, kernel(['/usr/bin/npm'])),
        other.request('remove', { name: 'NPM_TOKEN' }),
      ]);
      // The removal is the other document's: this one's memory has it once its delta came over the bus.
      let audit: { seq: number; type: string; refused?: string }[] = [];
      await waitUntil(async () => {
        const { list } = await page.request('list');
        audit = (list.audit as typeof audit).filter((e) => e.seq > last);
        return audit.some((e) => e.type === 'remove');
      }, 'the removal reaches this document');
      const removal = audit.find((e) => e.type === 'remove')!.seq;
      const reveal = audit.find((e) => e.type === 'materialize' && e.refused === undefined);
      if (reply.env) expect(reveal!.seq, 'the reveal was written before the removal').to.be.below(removal);
      else expect(reply.error.code).to.be.oneOf(['EACCES', 'ENOENT']);
      last = Math.max(...audit.map((e) => e.seq));
    }
  });

  it('reveals only the value its write checked: a rotation in another document that commits first makes the reveal decide again', async () => {
    // 32 variables (MAX_EXEC_VARS) make the decision long enough for the rotation to land inside it.
    const names = Array.from({ length: 31 }, (_, i) => `V${i}`);
    const { page, values, placeholders } = await withSecrets(`${LINES}${names.map((n) => `${n} = true\n`).join('')}[limits]\nmaterialize_per_minute = 100\n`);
    const env: Record<string, string> = { NODE_AUTH_TOKEN: placeholders.NPM };
    for (const name of names) env[name] = (await page.request('put', { name, value: canary(name) })).placeholder;
    const other = await welcomed();
    let current = values.npm;
    let last = -1;
    // Forty races of a materialize in one document against a rotation of one of its values in another,
    // each sent up to ten turns of the event loop after the other.
    for (let round = 0; round < 40; round++) {
      const next = canary('npm');
      const offset = (round % 20) - 10;
      const [reply, rotated] = await Promise.all([
        turns(Math.max(0, offset)).then(() => sealed(page, { op: 'materialize', env }, kernel(['/usr/bin/npm']))),
        turns(Math.max(0, -offset)).then(() => other.request('put', { name: 'NPM_TOKEN', value: next })),
      ]);
      expect(rotated.placeholder, 'a rotation keeps the placeholder').to.equal(placeholders.NPM);
      // The rotation's entry reaches this document over the bus.
      let audit: { seq: number; type: string; name: string; refused?: string }[] = [];
      await waitUntil(
        async () => {
          audit = (await page.request('list')).list.audit.filter((e: { seq: number }) => e.seq > last);
          return audit.some((e) => e.type === 'seal');
        },
        'the rotation is not in the audit',
        { timeout: 5000 },
      );
      const rotation = audit.find((e) => e.type === 'seal')!.seq;
      const reveal = audit.find((e) => e.type === 'materialize' && e.name === 'NPM_TOKEN' && e.refused === undefined)?.seq;
      if (reveal === undefined) {
        expect(reply.error?.code, JSON.stringify(audit)).to.equal('EAGAIN');
      } else {
        // The value revealed is the one stored when the reveal was written: before the rotation, the old one.
        const expected = reveal < rotation ? current : next;
        expect(reply.env.NODE_AUTH_TOKEN === expected, `round ${round}: the value revealed is the one its audit entry was written at`).to.equal(true);
      }
      current = next;
      last = Math.max(...audit.map((e) => e.seq));
    }
  });

  it('reveals a variable named __proto__ like any other', async () => {
    const { page, values, placeholders } = await withSecrets(LINES);
    const reply = await sealed(page, JSON.parse(`{"op":"materialize","env":{"__proto__":"${placeholders.NPM}"}}`), kernel(['/usr/bin/npm']));
    expect(Object.getOwnPropertyDescriptor(reply.env, '__proto__')?.value).to.equal(values.npm);
    expect(Object.keys(reply.env)).to.deep.equal(['__proto__']);
  });

  it('keeps the rates of [limits] across two documents and a reload, and frees them when the minute has passed', async () => {
    const clock = '/test/fixtures/clock-frame.html';
    const { page, placeholders } = await withSecrets(`${LINES}[limits]\nmaterialize_per_minute = 2\n`, clock);
    const ask = (client: VaultClient) => sealed(client, { op: 'materialize', env: { T: placeholders.NPM } }, kernel(['/usr/bin/env']));
    expect((await ask(page)).revealed).to.deep.equal(['NPM_TOKEN']);
    const second = await welcomed({ path: clock });
    expect((await ask(second)).revealed).to.deep.equal(['NPM_TOKEN']);
    const refused = await ask(page);
    expect(refused.error.code).to.equal('EAGAIN');
    expect(refused.error.message).to.match(/^materialize_per_minute \(2\) reached; try again in \d+ s$/);
    // A reload: a new document of the vault, the others gone.
    page.frame!.remove();
    second.frame!.remove();
    const reloaded = await welcomed({ path: clock });
    expect((await ask(reloaded)).error.code).to.equal('EAGAIN');
    const { list } = await reloaded.request('list');
    expect(
      list.audit.filter((e: { type: string; refused?: string }) => e.type === 'materialize' && e.refused?.startsWith('materialize_per_minute')),
    ).to.have.length(2);
    await advanceClock(reloaded.frame!, 61_000);
    expect((await ask(reloaded)).revealed).to.deep.equal(['NPM_TOKEN']);
  });
});

describe("materialize's audit, when a program puts a value in what it sends", () => {
  beforeEach(resetVault);

  /** withSecrets, and NAMED holding a value shaped as a variable name. */
  async function withNamed() {
    const set = await withSecrets(LINES);
    const named = canaryName('variable');
    const NAMED = (await set.page.request('put', { name: 'NAMED', value: named })).placeholder;
    return { ...set, named, NAMED };
  }

  it('stores the tag with the value scrubbed out, as its placeholder', async () => {
    const { page, values, placeholders } = await withSecrets(LINES);
    const stamp = { ...kernel(['/usr/bin/npm']), tag: `npm ${values.gh}` };
    expect((await sealed(page, { op: 'materialize', env: { T: placeholders.NPM } }, stamp)).revealed).to.deep.equal(['NPM_TOKEN']);
    expect((await auditedWithout(page, 'materialize', values.gh)).tag).to.equal(`npm ${placeholders.GH}`);
  });

  it('stores a variable named as a value with the value scrubbed out', async () => {
    const { page, placeholders, named, NAMED } = await withNamed();
    expect((await sealed(page, { op: 'materialize', env: { [named]: placeholders.NPM } }, kernel(['/usr/bin/npm']))).revealed).to.deep.equal(['NPM_TOKEN']);
    expect(await auditedWithout(page, 'materialize', named)).to.deep.include({ name: 'NPM_TOKEN', variable: NAMED });
  });

  it("stores a refused variable's name and reason with the value scrubbed out", async () => {
    const { page, named, NAMED } = await withNamed();
    const reply = await sealed(page, { op: 'materialize', env: { [named]: `fnox_proxy_${'0'.repeat(24)}` } }, kernel(['/usr/bin/npm']));
    expect(reply.error.code).to.equal('ENOENT');
    expect(await auditedWithout(page, 'materialize', named)).to.deep.include({
      name: NAMED,
      variable: NAMED,
      refused: `${NAMED}'s placeholder is not of this vault`,
    });
  });

  it('stores the argv with the value scrubbed out', async () => {
    const { page, values, placeholders } = await withSecrets(LINES);
    await sealed(page, { op: 'materialize', env: { T: placeholders.NPM } }, kernel(['/usr/bin/npm', `--token=${values.gh}`]));
    expect((await auditedWithout(page, 'materialize', values.gh)).argv).to.deep.equal(['/usr/bin/npm', `--token=${placeholders.GH}`]);
  });
});
