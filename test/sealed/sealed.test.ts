import { expect } from '@open-wc/testing';
import type { Stamp } from '../../src/contract.ts';
import { jsonShape, repeatsKey } from '../../src/sealed/parse.ts';
import { FNOX, attest, fnoxConfig } from '../helpers/attest.ts';
import { prng } from '../helpers/random.ts';
import { advanceClock, auditedWithout, canary, crossed, findCanaries, resetVault, welcomed, type VaultClient } from '../helpers/vault.ts';

const user: Stamp = { pid: 4242, ppid: 1, uid: 1000, gid: 1000, tag: 'npm' };
const other: Stamp = { pid: 4343, ppid: 1, uid: 1001, gid: 1001, tag: 'curl' };
const root: Stamp = { pid: 1, ppid: 0, uid: 0, gid: 0, tag: 'init' };

async function sealed(page: VaultClient, req: unknown, stamp: Stamp = user) {
  const reply = await page.request('sealed', { req, stamp });
  expect(reply.op, JSON.stringify(reply)).to.equal('sealed');
  return reply.reply;
}

describe('/dev/sealed', () => {
  beforeEach(resetVault);

  describe('seal', () => {
    it('creates a process record and answers its placeholder and state', async () => {
      const page = await welcomed();
      const reply = await sealed(page, { op: 'seal', name: 'NPM_TOKEN', value: canary() });
      expect(reply.placeholder).to.match(/^fnox_proxy_[0-9a-f]{24}$/);
      expect(reply.state).to.equal('inert');
      const { list } = await page.request('list');
      expect(list.secrets[0]).to.include({ name: 'NPM_TOKEN', source: 'process', kind: 'secret' });
      expect(list.audit[0]).to.include({ type: 'seal', uid: 1000, tag: 'npm', rotated: false });
    });

    it('takes the request as JSON text too', async () => {
      const page = await welcomed();
      const reply = await sealed(page, JSON.stringify({ op: 'seal', name: 'AS_TEXT', value: canary() }));
      expect(reply.placeholder).to.match(/^fnox_proxy_/);
    });

    it('rotates a value a process sealed for the same uid, keeping the placeholder', async () => {
      const page = await welcomed();
      const first = await sealed(page, { op: 'seal', name: 'PROC', value: canary() }, user);
      const second = await sealed(page, { op: 'seal', name: 'PROC', value: canary() }, user);
      expect(second.placeholder).to.equal(first.placeholder);
    });

    it("refuses another uid's rotation of a process value, so one user's requests never carry another's credential", async () => {
      const page = await welcomed();
      const first = await sealed(page, { op: 'seal', name: 'PROC', value: canary() }, user);
      const { list: before } = await page.request('list');
      expect(await sealed(page, { op: 'seal', name: 'PROC', value: canary('attacker') }, other)).to.deep.equal({
        error: { code: 'EEXIST', message: 'PROC was sealed by another user' },
      });
      const { list: after } = await page.request('list');
      expect(after.secrets).to.deep.equal(before.secrets);
      expect(after.audit).to.deep.equal(before.audit);
      // Root may rotate it, and the owner keeps it: uid 1000 can still rotate, uid 1001 still can't.
      expect((await sealed(page, { op: 'seal', name: 'PROC', value: canary() }, root)).placeholder).to.equal(first.placeholder);
      expect((await sealed(page, { op: 'seal', name: 'PROC', value: canary() }, user)).placeholder).to.equal(first.placeholder);
      expect((await sealed(page, { op: 'seal', name: 'PROC', value: canary() }, other)).error.code).to.equal('EEXIST');
    });

    it('lets only uid 0 replace a value from Settings or a sign-in', async () => {
      const page = await welcomed();
      const { placeholder } = await page.request('put', { name: 'FROM_SETTINGS', value: canary() });
      await page.request('seal', { name: 'FROM_OAUTH', value: canary(), source: 'oauth:github', kind: 'secret' });
      expect(await sealed(page, { op: 'seal', name: 'FROM_SETTINGS', value: canary() }, user)).to.deep.equal({
        error: { code: 'EEXIST', message: 'FROM_SETTINGS holds a value from settings; only root may replace it' },
      });
      expect((await sealed(page, { op: 'seal', name: 'FROM_OAUTH', value: canary() }, user)).error.code).to.equal('EEXIST');
      expect((await sealed(page, { op: 'seal', name: 'FROM_SETTINGS', value: canary() }, root)).placeholder).to.equal(placeholder);
      const { list } = await page.request('list');
      expect(list.secrets.find((s: any) => s.name === 'FROM_SETTINGS').source).to.equal('process');
    });

    it('applies the value and name rules of put, inside the reply', async () => {
      const page = await welcomed();
      expect(await sealed(page, { op: 'seal', name: 'SHORT', value: 'seven77' })).to.deep.equal({
        error: { code: 'EINVAL', message: "values shorter than 8 bytes can't be protected from the model" },
      });
      expect((await sealed(page, { op: 'seal', name: 'has-dash', value: canary() })).error.code).to.equal('EINVAL');
      expect((await page.request('list')).list.secrets).to.deep.equal([]);
    });

    it('needs the vault unlocked like put (EACCES while locked is tested with the lock)', async () => {
      const page = await welcomed();
      expect((await sealed(page, { op: 'seal', name: 'OPEN', value: canary() })).placeholder).to.be.a('string');
    });
  });

  describe('placeholder and list', () => {
    it('answers a placeholder with its state, removed included, and ENOENT without a record', async () => {
      const page = await welcomed();
      const { placeholder } = await page.request('put', { name: 'P_TOKEN', value: canary() });
      expect(await sealed(page, { op: 'placeholder', name: 'P_TOKEN' })).to.deep.equal({ placeholder, state: 'inert' });
      await page.request('remove', { name: 'P_TOKEN' });
      expect(await sealed(page, { op: 'placeholder', name: 'P_TOKEN' })).to.deep.equal({ placeholder, state: 'removed' });
      expect(await sealed(page, { op: 'placeholder', name: 'NOPE' })).to.deep.equal({ error: { code: 'ENOENT', message: 'there is no record named NOPE' } });
    });

    it('lists the secrets that are not removed with their rules, exec mode and expiry', async () => {
      const page = await welcomed();
      const { placeholder } = await page.request('put', { name: 'LISTED', value: canary(), expiresAt: 1893456000000 });
      await page.request('put', { name: 'GONE', value: canary() });
      await page.request('remove', { name: 'GONE' });
      await page.request('put', { name: 'a-model', value: canary(), kind: 'model' });
      await page.request('policy', { files: [await attest(FNOX, fnoxConfig([['LISTED', placeholder, 'api.example.com']]))] });
      expect(await sealed(page, { op: 'list' })).to.deep.equal({
        secrets: [
          {
            name: 'LISTED',
            placeholder,
            state: 'active',
            exec: false,
            rules: [{ domain: 'api.example.com', header: 'authorization', methods: [], paths: [] }],
            expiresAt: 1893456000000,
          },
        ],
      });
    });
  });

  describe('test', () => {
    it('refuses without a policy, injects where a rule allows, and ENOENT for an unknown name', async () => {
      const page = await welcomed();
      const { placeholder } = await page.request('put', { name: 'GH', value: canary() });
      const refused = await sealed(page, { op: 'test', name: 'GH', url: 'https://api.github.com/user' });
      expect(refused.verdict).to.equal('refuse');
      expect(refused.reason).to.equal("GH is inert: /etc/fnox/config.toml doesn't hold its placeholder");
      await page.request('policy', { files: [await attest(FNOX, fnoxConfig([['GH', placeholder, 'api.github.com', 'paths = ["/user"]']]))] });
      const allowed = await sealed(page, { op: 'test', name: 'GH', url: 'https://api.github.com/user' });
      expect(allowed.verdict).to.equal('inject');
      const elsewhere = await sealed(page, { op: 'test', name: 'GH', url: 'https://api.github.com/repos', method: 'POST', exit: 'proxy' });
      expect(elsewhere.verdict).to.equal('refuse');
      expect(await sealed(page, { op: 'test', name: 'NOPE', url: 'https://x.example.com/' })).to.deep.equal({
        error: { code: 'ENOENT', message: 'there is no record named NOPE' },
      });
    });
  });

  describe('requests', () => {
    it('makes a value request that shows in status.waiting and is answered by put', async () => {
      const page = await welcomed();
      const made = await sealed(page, { op: 'request', kind: 'value', name: 'WANTED', prompt: 'the deploy key, please' });
      expect(made.state).to.equal('pending');
      const waiting = await page.until((e) => e.op === 'status' && e.status.waiting.length === 1);
      expect(waiting.status.waiting[0]).to.include({ id: made.id, kind: 'value', name: 'WANTED', prompt: 'the deploy key, please', uid: 1000, tag: 'npm' });
      expect(waiting.status.waiting[0].expiresAt - waiting.status.waiting[0].createdAt).to.equal(300000);
      const wrong = await page.request('put', { name: 'OTHER', value: canary(), request: made.id });
      expect(wrong.error).to.deep.equal({ code: 'EINVAL', message: 'that request asks for WANTED, not OTHER' });
      const { placeholder } = await page.request('put', { name: 'WANTED', value: canary(), request: made.id });
      const done = await sealed(page, { op: 'status', id: made.id });
      expect(done).to.include({ id: made.id, kind: 'value', name: 'WANTED', state: 'done', placeholder });
      expect((await page.request('status')).status.waiting).to.deep.equal([]);
      expect((await page.request('put', { name: 'WANTED', value: canary(), request: made.id })).error.code).to.equal('ENOENT');
    });

    it('allows one pending request per uid: a second is EAGAIN, another uid may ask', async () => {
      const page = await welcomed();
      await sealed(page, { op: 'request', kind: 'value', name: 'FIRST' }, user);
      expect(await sealed(page, { op: 'request', kind: 'jerk-seal', provider: 'github' }, user)).to.deep.equal({
        error: { code: 'EAGAIN', message: 'uid 1000 already has a pending request; wait for it or cancel it' },
      });
      expect((await sealed(page, { op: 'request', kind: 'value', name: 'SECOND' }, other)).state).to.equal('pending');
    });

    it('shows status and cancel only to the caller, and everything to uid 0', async () => {
      const page = await welcomed();
      const mine = await sealed(page, { op: 'request', kind: 'value', name: 'MINE' }, user);
      const theirs = await sealed(page, { op: 'request', kind: 'value', name: 'THEIRS' }, other);
      expect((await sealed(page, { op: 'status' }, user)).requests.map((r: any) => r.id)).to.deep.equal([mine.id]);
      expect((await sealed(page, { op: 'status' }, root)).requests.map((r: any) => r.id)).to.deep.equal([mine.id, theirs.id]);
      expect(await sealed(page, { op: 'status', id: theirs.id }, user)).to.deep.equal({
        error: { code: 'ENOENT', message: 'there is no request with that id' },
      });
      expect((await sealed(page, { op: 'cancel', id: theirs.id }, user)).error.code).to.equal('ENOENT');
      expect(await sealed(page, { op: 'cancel', id: theirs.id }, root)).to.deep.equal({ state: 'cancelled' });
      expect(await sealed(page, { op: 'cancel', id: mine.id }, user)).to.deep.equal({ state: 'cancelled' });
      expect((await sealed(page, { op: 'status', id: mine.id }, user)).state).to.equal('cancelled');
    });

    it('ends a request with the page\u2019s cancel', async () => {
      const page = await welcomed();
      const made = await sealed(page, { op: 'request', kind: 'value', name: 'CANCELLED' });
      expect(await page.request('cancel', { request: made.id })).to.include({ op: 'cancel', state: 'cancelled' });
      expect((await sealed(page, { op: 'status', id: made.id })).state).to.equal('cancelled');
      expect((await page.request('status')).status.waiting).to.deep.equal([]);
    });

    it('answers an oauth request with the page\u2019s seal from that provider', async () => {
      const page = await welcomed();
      const made = await sealed(page, { op: 'request', kind: 'oauth', provider: 'github', oauth: { scopes: ['repo'] } });
      await page.request('seal', { name: 'GH_OTHER', value: canary(), source: 'oauth:gitlab', kind: 'grant' });
      expect((await sealed(page, { op: 'status', id: made.id })).state).to.equal('pending');
      const { placeholder } = await page.request('seal', { name: 'GH_GRANT', value: canary(), source: 'oauth:github', kind: 'grant' });
      expect(await sealed(page, { op: 'status', id: made.id })).to.include({ state: 'done', placeholder, provider: 'github' });
    });

    it('expires a request 300 s after it was made', async () => {
      const page = await welcomed({ path: '/test/fixtures/clock-frame.html' });
      const made = await sealed(page, { op: 'request', kind: 'value', name: 'SOON' });
      await advanceClock(page.frame!, 299_000);
      expect((await sealed(page, { op: 'status', id: made.id })).state).to.equal('pending');
      expect((await sealed(page, { op: 'request', kind: 'value', name: 'AGAIN' })).error.code).to.equal('EAGAIN');
      await advanceClock(page.frame!, 1_000);
      expect((await sealed(page, { op: 'status', id: made.id })).state).to.equal('expired');
      expect((await page.request('status')).status.waiting).to.deep.equal([]);
      expect((await page.request('put', { name: 'SOON', value: canary(), request: made.id })).error.code).to.equal('ENOENT');
      expect((await sealed(page, { op: 'request', kind: 'value', name: 'AGAIN' })).state).to.equal('pending');
    });

    it('keeps a pending request across a reload of the frame', async () => {
      const first = await welcomed();
      const made = await sealed(first, { op: 'request', kind: 'value', name: 'KEPT' });
      first.frame!.remove();
      const again = await welcomed();
      expect((await again.request('status')).status.waiting.map((r: any) => r.id)).to.deep.equal([made.id]);
      expect((await sealed(again, { op: 'status', id: made.id })).state).to.equal('pending');
    });

    it('refuses a prompt of 201 characters and takes one of 200', async () => {
      const page = await welcomed();
      expect(await sealed(page, { op: 'request', kind: 'value', name: 'LONG', prompt: 'p'.repeat(201) })).to.deep.equal({
        error: { code: 'EINVAL', message: 'prompt must be at most 200 characters' },
      });
      expect((await sealed(page, { op: 'request', kind: 'value', name: 'LONG', prompt: 'p'.repeat(200) })).state).to.equal('pending');
    });
  });

  describe('bad requests', () => {
    it('answers EINVAL inside the reply, naming what is wrong', async () => {
      const page = await welcomed();
      const cases: [unknown, string][] = [
        ['{not json', 'req is not JSON'],
        [[1], 'req must be an object'],
        [{ op: 'frobnicate' }, 'op frobnicate is not a /dev/sealed op'],
        [{ name: 'X' }, 'op must be a string'],
        [{ op: 'placeholder' }, 'name must be a non-empty string'],
        [{ op: 'placeholder', name: 7 }, 'name must be a non-empty string'],
        [{ op: 'seal', name: 'X_Y' }, 'value must be a string'],
        [{ op: 'test', name: 'X', url: 3 }, 'url must be a non-empty string'],
        [{ op: 'test', name: 'X', url: 'https://a.example.com', exit: 'moon' }, 'exit must be'],
        [{ op: 'request', kind: 'wish' }, 'kind must be value, oauth or jerk-seal'],
        [{ op: 'request', kind: 'oauth', provider: 'github' }, 'oauth must be an object'],
        [{ op: 'cancel' }, 'id must be a non-empty string'],
        [{ op: 'list', extra: 1 }, 'list has no field extra'],
        [{ op: 'list', '': 1 }, 'list has no field ""'],
        // JSON text that reads two ways, whichever of two equal keys a reader keeps.
        ['{"op":"list","op":"materialize","env":{"A":"fnox_proxy_000000000000000000000000"}}', 'req names a key twice in one object'],
        ['{"op":"cancel","id":"a","\\u0069d":"b"}', 'req names a key twice in one object'],
      ];
      for (const [req, message] of cases) {
        const reply = await sealed(page, req);
        expect(reply.error?.code, JSON.stringify(req)).to.equal('EINVAL');
        expect(reply.error.message, JSON.stringify(req)).to.include(message);
      }
    });

    it('finds two equal keys in one object of generated JSON text, spelled with escapes, and no others, and counts its keys and values as a walk of its parse does (3 seeds of 300)', () => {
      for (const seed of [7, 8, 9]) {
        const random = prng(seed);
        const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
        // A key or string's text, each character maybe as \uXXXX; strings hold what could trick a scanner.
        const spell = (s: string) =>
          `"${[...s].map((c) => (c === '"' || c === '\\' ? `\\${c}` : random() < 0.3 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('')}"`;
        const space = () => pick(['', ' ', '\n', '\t ', '\r\n']);
        /** A value's text, and whether some object in it has two equal keys (known as it is made). */
        const value = (depth: number): [string, boolean] => {
          const r = random();
          if (depth > 3 || r < 0.3) return [pick([spell(pick(['{', '}', ':', '"x":', '\\', 'a,b', '[]'])), '1', 'true', 'null']), false];
          if (r < 0.5) {
            const items = Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
            return [`[${items.map(([t]) => space() + t + space()).join(',')}]`, items.some(([, d]) => d)];
          }
          const keys = Array.from({ length: Math.floor(random() * 5) }, () => pick(['op', 'id', 'env', 'a', 'A', 'é', '"q', '']));
          const members = keys.map((k) => [k, value(depth + 1)] as const);
          const twice = new Set(keys).size !== keys.length;
          const text = `{${members.map(([k, [t]]) => `${space()}${spell(k)}${space()}:${space()}${t}`).join(',')}${space()}}`;
          return [text, twice || members.some(([, [, d]]) => d)];
        };
        // The reference count: a walk of the parse, each key and value one.
        const count = (v: unknown): number =>
          v === null || typeof v !== 'object'
            ? 1
            : Array.isArray(v)
              ? 1 + v.reduce((n: number, x) => n + count(x), 0)
              : 1 + Object.values(v).reduce((n: number, x) => n + 1 + count(x), 0);
        for (let round = 0; round < 300; round++) {
          const [text, twice] = value(0);
          const parsed = JSON.parse(text);
          expect(repeatsKey(text), text).to.equal(twice);
          if (!twice) expect(jsonShape(text).values, text).to.equal(count(parsed));
        }
      }
    });

    it("answers materialize of a field it doesn't take EINVAL inside reply, and one without the kernel's exec too", async () => {
      const page = await welcomed();
      expect(await sealed(page, { op: 'materialize', name: 'X' })).to.deep.equal({ error: { code: 'EINVAL', message: 'materialize has no field name' } });
      const env = { T: 'fnox_proxy_000000000000000000000001' };
      expect(await sealed(page, { op: 'materialize', env })).to.deep.equal({
        error: { code: 'EINVAL', message: "materialize needs the kernel's exec in the stamp" },
      });
    });

    it('answers a malformed stamp with a port error', async () => {
      const page = await welcomed();
      const reply = await page.request('sealed', { req: { op: 'list' }, stamp: { uid: -1 } });
      expect(reply.error.code).to.equal('EINVAL');
      expect(reply.error.message).to.include('stamp.');
    });
  });
});

describe("/dev/sealed's audit, when a program puts a value in what it sends", () => {
  beforeEach(resetVault);

  it('stores the tag of a seal with the value of another record scrubbed out', async () => {
    const page = await welcomed();
    const value = canary('tag');
    const { placeholder } = await page.request('put', { name: 'GH_TOKEN', value });
    await sealed(page, { op: 'seal', name: 'NPM_TOKEN', value: canary() }, { ...user, tag: `npm ${value}` });
    expect((await auditedWithout(page, 'seal', value)).tag).to.equal(`npm ${placeholder}`);
  });

  it('stores the tag of a seal holding the very value it seals as its placeholder', async () => {
    const page = await welcomed();
    const value = canary('own');
    const { placeholder } = await sealed(page, { op: 'seal', name: 'NPM_TOKEN', value }, { ...user, tag: `npm ${value}` });
    expect((await auditedWithout(page, 'seal', value)).tag).to.equal(`npm ${placeholder}`);
  });

  it('stores the name of a record named as a value scrubbed, in its seal, remove and restore entries', async () => {
    const page = await welcomed();
    // Not a canary: the records list names it (the list is not the audit).
    const value = `tok_${crypto.randomUUID().replaceAll('-', '')}`;
    const { placeholder } = await page.request('put', { name: 'GH_TOKEN', value });
    await sealed(page, { op: 'seal', name: value, value: canary() });
    expect((await auditedWithout(page, 'seal', value)).name).to.equal(placeholder);
    await page.request('remove', { name: value });
    expect((await auditedWithout(page, 'remove', value)).name).to.equal(placeholder);
    await page.request('restore', { name: value });
    expect((await auditedWithout(page, 'restore', value)).name).to.equal(placeholder);
  });
});

describe('/dev/sealed replies', () => {
  it('never carry a value (every message of this file searched)', async () => {
    expect(crossed.length).to.be.greaterThan(50);
    expect(findCanaries(crossed)).to.deep.equal([]);
  });
});
