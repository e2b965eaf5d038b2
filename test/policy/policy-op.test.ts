import { expect, waitUntil } from '@open-wc/testing';
import { origins } from '../helpers/origins.ts';
import { FNOX, SECRETS, attest, decode, fnoxConfig, loadFixtures } from '../helpers/attest.ts';
import { auditedWithout, canary, resetVault, welcomed, type VaultClient } from '../helpers/vault.ts';

async function secretNamed(page: VaultClient, name: string) {
  const { list } = await page.request('list');
  return list.secrets.find((s: any) => s.name === name);
}

describe('the policy op', () => {
  beforeEach(resetVault);

  it('runs every KS-7 fixture: good ones trusted, each bad one refused with its reason', async () => {
    const page = await welcomed();
    const fixtures = await loadFixtures();
    for (const [name, fixture] of fixtures) {
      const reply = await page.request('policy', { files: [decode(fixture.attestation)] });
      expect(reply.error, name).to.equal(undefined);
      expect(reply.files[0].accepted, name).to.equal(fixture.trusted);
      expect(reply.accepted, name).to.equal(fixture.trusted);
      if (!fixture.trusted) expect(reply.files[0].warnings.join('\n'), name).to.include(fixture.reason);
    }
  });

  it('activates a secret whose [secrets] entry holds its own placeholder and a rule names it', async () => {
    const page = await welcomed();
    const { placeholder } = await page.request('put', { name: 'GITHUB_TOKEN', value: canary() });
    const { placeholder: other } = await page.request('put', { name: 'UNRULED', value: canary() });
    const text = `[secrets]
GITHUB_TOKEN = { provider = "seven", value = "${placeholder}" }
UNRULED = { provider = "seven", value = "${other}" }

[[proxy.rules]]
secret = "GITHUB_TOKEN"
domain = "api.github.com"
methods = ["get"]
paths = ["/repos/**"]
`;
    const reply = await page.request('policy', { files: [await attest(FNOX, text)] });
    expect(reply).to.include({ accepted: true });
    expect(reply.rules).to.deep.equal([{ secret: 'GITHUB_TOKEN', domain: 'api.github.com', header: 'authorization', methods: ['GET'], paths: ['/repos/**'] }]);
    const secret = await secretNamed(page, 'GITHUB_TOKEN');
    expect(secret.state).to.equal('active');
    expect(secret.rules).to.deep.equal([{ domain: 'api.github.com', header: 'authorization', methods: ['GET'], paths: ['/repos/**'] }]);
    expect((await secretNamed(page, 'UNRULED')).state).to.equal('inert');
    expect((await page.request('put', { name: 'GITHUB_TOKEN', value: canary() })).state).to.equal('active');
  });

  it('keeps the last accepted rules when a file is refused, and new ones stay inert', async () => {
    const page = await welcomed();
    const a = (await page.request('put', { name: 'A_TOKEN', value: canary() })).placeholder;
    const b = (await page.request('put', { name: 'B_TOKEN', value: canary() })).placeholder;
    await page.request('policy', { files: [await attest(FNOX, fnoxConfig([['A_TOKEN', a, 'a.example.com']]))] });
    const refused = await page.request('policy', {
      files: [await attest(FNOX, fnoxConfig([['B_TOKEN', b, 'b.example.com']]), { users: 'report' })],
    });
    expect(refused.accepted).to.equal(false);
    expect(refused.warnings).to.deep.equal(['rules not trusted: /etc/fnox/config.toml: kernel users must be enforce']);
    expect(refused.rules.map((r: any) => r.secret)).to.deep.equal(['A_TOKEN']);
    expect((await secretNamed(page, 'A_TOKEN')).state).to.equal('active');
    expect((await secretNamed(page, 'B_TOKEN')).state).to.equal('inert');
    const { status } = await page.request('status');
    expect(status.policy).to.deep.equal(refused.files);
  });

  it('drops each broken rule with its warning while the others count', async () => {
    const page = await welcomed();
    const ok = (await page.request('put', { name: 'OK_TOKEN', value: canary() })).placeholder;
    const text = `${fnoxConfig([['OK_TOKEN', ok, 'ok.example.com']])}
[[proxy.rules]]
secret = "OK_TOKEN"
domain = "API.Example.com"

[[proxy.rules]]
secret = "OK_TOKEN"
domain = "p.example.com"
paths = ["no-slash"]

[[proxy.rules]]
secret = "OK_TOKEN"
domain = "m.example.com"
methods = ["FETCH"]

[[proxy.rules]]
secret = "NOBODY"
domain = "n.example.com"
`;
    const reply = await page.request('policy', { files: [await attest(FNOX, text)] });
    expect(reply.accepted).to.equal(true);
    expect(reply.rules.map((r: any) => r.domain)).to.deep.equal(['ok.example.com']);
    expect(reply.warnings).to.have.length(4);
    expect(reply.warnings.join('\n')).to.include('proxy.rules[1]').and.include('proxy.rules[2]').and.include('proxy.rules[3]').and.include('proxy.rules[4]');
    expect((await secretNamed(page, 'OK_TOKEN')).state).to.equal('active');
  });

  it('activates nothing with a placeholder from another namespace or of a removed record', async () => {
    const mine = await welcomed();
    const theirs = await welcomed({ embedder: origins.other });
    const foreign = (await theirs.request('put', { name: 'FOREIGN', value: canary() })).placeholder;
    await mine.request('put', { name: 'FOREIGN', value: canary() });
    const gone = (await mine.request('put', { name: 'GONE', value: canary() })).placeholder;
    await mine.request('remove', { name: 'GONE' });
    await mine.request('policy', {
      files: [
        await attest(
          FNOX,
          fnoxConfig([
            ['FOREIGN', foreign, 'f.example.com'],
            ['GONE', gone, 'g.example.com'],
          ]),
        ),
      ],
    });
    expect((await secretNamed(mine, 'FOREIGN')).state).to.equal('inert');
    expect((await secretNamed(mine, 'GONE')).state).to.equal('removed');
    expect((await secretNamed(theirs, 'FOREIGN')).state, 'policy is per namespace').to.equal('inert');
  });

  it('reads [exec], [exits] and [limits] into list', async () => {
    const page = await welcomed();
    await page.request('put', { name: 'NPM_TOKEN', value: canary() });
    await page.request('put', { name: 'GH_TOKEN', value: canary() });
    const text = `[exec]\nNPM_TOKEN = true\nGH_TOKEN = { argv = [["/usr/bin/gh", "release"]] }\n\n[exits]\nNPM_TOKEN = ["page", "device:lars-air", "moon"]\n\n[limits]\nshell_per_day = 7\n`;
    const reply = await page.request('policy', { files: [await attest(SECRETS, text)] });
    expect(reply.accepted).to.equal(true);
    expect(reply.warnings.join('\n')).to.include('moon');
    const { list } = await page.request('list');
    const npm = list.secrets.find((s: any) => s.name === 'NPM_TOKEN');
    const gh = list.secrets.find((s: any) => s.name === 'GH_TOKEN');
    expect(npm).to.deep.include({ exec: 'any', exits: ['page', 'device:lars-air'] });
    expect(gh).to.deep.include({ exec: 'argv', execArgv: [['/usr/bin/gh', 'release']] });
    expect(gh).to.not.have.property('exits');
    expect(list.exits).to.deep.equal({ secrets: [{ name: 'NPM_TOKEN', exits: ['page', 'device:lars-air'] }] });
  });

  it('audits each file once per SHA-256 and verdict, with its changes', async () => {
    const page = await welcomed();
    const p = (await page.request('put', { name: 'AUDITED', value: canary() })).placeholder;
    const good = await attest(FNOX, fnoxConfig([['AUDITED', p, 'x.example.com']]));
    const bad = await attest(FNOX, fnoxConfig([['AUDITED', p, 'x.example.com']]), { uid: 1000 });
    for (const files of [[good], [good], [bad], [bad], [good]]) await page.request('policy', { files });
    const { audit } = await page.request('audit');
    const entries = audit.filter((e: any) => e.type === 'policy');
    expect(entries.map((e: any) => e.accepted)).to.deep.equal([false, true]);
    const [refusal, acceptance] = entries;
    expect(acceptance).to.deep.include({ path: FNOX, sha256: good.sha256, accepted: true });
    expect(acceptance.changes).to.deep.equal([
      { what: 'rule', change: 'added', secret: 'AUDITED', rule: { domain: 'x.example.com', header: 'authorization', methods: [], paths: [] } },
    ]);
    expect(refusal).to.deep.include({ accepted: false, changes: [], warning: 'rules not trusted: /etc/fnox/config.toml: file must be owned by uid 0' });
  });

  it("stores a refused file's path and warning, and an accepted file's rules, with a value in them scrubbed out", async () => {
    const page = await welcomed();
    // Not a canary: the policy reply names the path bios gave (the reply is not the audit).
    const value = `v${crypto.randomUUID().replaceAll('-', '')}`;
    const { placeholder: shown } = await page.request('put', { name: 'OTHER', value });
    const p = (await page.request('put', { name: 'AUDITED', value: canary() })).placeholder;
    const text = fnoxConfig([['AUDITED', p, 'x.example.com']]);
    await page.request('policy', { files: [{ ...(await attest(FNOX, text)), path: `/etc/fnox/${value}.toml` }] });
    const refusal = await auditedWithout(page, 'policy', value);
    expect(refusal).to.deep.include({ path: `/etc/fnox/${shown}.toml`, accepted: false });
    expect(refusal.warning).to.include(shown);
    await page.request('policy', { files: [await attest(FNOX, fnoxConfig([['AUDITED', p, `${value}.example.com`]]))] });
    const acceptance = await auditedWithout(page, 'policy', value);
    expect(acceptance.changes[0].rule.domain).to.equal(`${shown}.example.com`);
  });

  it("lands two documents' policy calls made at the same moment", async () => {
    const a = await welcomed();
    const b = await welcomed();
    const p = (await a.request('put', { name: 'BOTH', value: canary() })).placeholder;
    const [config, secrets] = await Promise.all([
      attest(FNOX, fnoxConfig([['BOTH', p, 'both.example.com']])),
      attest(SECRETS, '[exec]\nBOTH = { shell = true }\n'),
    ]);
    await Promise.all([a.request('policy', { files: [config] }), b.request('policy', { files: [secrets] })]);
    // Each document learns of the other's write from its notice on the bus: wait for it.
    for (const page of [a, b]) {
      await waitUntil(async () => {
        const both = await secretNamed(page, 'BOTH');
        return both.state === 'active' && both.exec === 'shell';
      }, 'a document never showed both files');
    }
  });

  it('pushes changed to every page port of the namespace and to no other', async () => {
    const a = await welcomed();
    const b = await welcomed();
    const stranger = await welcomed({ embedder: origins.other });
    const p = (await a.request('put', { name: 'PUSHED', value: canary() })).placeholder;
    await a.request('policy', { files: [await attest(FNOX, fnoxConfig([['PUSHED', p, 'push.example.com']]))] });
    const active = (e: any) => e.op === 'changed' && e.secrets.some((s: any) => s.name === 'PUSHED' && s.state === 'active');
    const event = await b.until(active);
    expect(event.audit[0]).to.include({ type: 'policy', accepted: true });
    expect(event.exits).to.deep.equal({ secrets: [] });
    // `changed` is coalesced (README, Embedding API: events): a's may come at the end of its window, after b's.
    await a.until(active, 0, 5000, 'the writing port never got changed');
    await stranger.request('status');
    expect(stranger.events.filter((e) => e.op === 'changed')).to.deep.equal([]);
  });

  it('answers a TOML syntax error with a warning naming the line, not an error', async () => {
    const page = await welcomed();
    const reply = await page.request('policy', { files: [await attest(FNOX, '[secrets]\na = 1\na = 2\n')] });
    expect(reply.error).to.equal(undefined);
    expect(reply.accepted).to.equal(false);
    expect(reply.warnings[0]).to.include('rules not trusted: /etc/fnox/config.toml').and.include('line');
  });

  it('answers EINVAL for files that are not a list of attestations', async () => {
    const page = await welcomed();
    for (const files of [undefined, 'x', [], [1, 2, 3]]) {
      expect((await page.request('policy', { files })).error?.code, JSON.stringify(files)).to.equal('EINVAL');
    }
    const config = await attest(FNOX, '');
    expect((await page.request('policy', { files: [config, config] })).error.message).to.equal('files lists /etc/fnox/config.toml twice');
    expect((await page.request('status')).status.policy).to.deep.equal([]);
  });
});
