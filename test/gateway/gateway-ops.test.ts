import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { origins } from '../helpers/origins.ts';
import { canary, crossed, findCanaries, resetVault, welcomed } from '../helpers/vault.ts';

const PLACEHOLDER = /^fnox_proxy_[0-9a-f]{24}$/;

describe('the page ops', () => {
  before(() => executeServerCommand('console-start'));
  beforeEach(resetVault);

  it('put creates a record, pushes placeholders before the reply, and lists it', async () => {
    const page = await welcomed();
    const value = canary('put');
    const reply = await page.request('put', { name: 'GITHUB_TOKEN', value });
    expect(reply.op).to.equal('put');
    expect(reply.placeholder).to.match(PLACEHOLDER);
    expect(reply.state).to.equal('inert');
    const push = page.events.find((e) => e.op === 'placeholders');
    expect(push, 'the placeholders push came before the reply').to.exist;
    expect(push).to.deep.include({ placeholders: [reply.placeholder] });
    expect(push).to.have.deep.property('scrub', { needed: true, version: 1, ready: true });

    const { list } = await page.request('list');
    expect(list.secrets).to.have.length(1);
    expect(list.secrets[0]).to.include({
      name: 'GITHUB_TOKEN',
      kind: 'secret',
      source: 'settings',
      placeholder: reply.placeholder,
      state: 'inert',
      exec: false,
    });
    expect(list.secrets[0].rules).to.deep.equal([]);
    expect(list.audit[0]).to.include({ type: 'seal', name: 'GITHUB_TOKEN', rotated: false });
    expect(list).to.include({ auditMore: false });
  });

  it('put of an existing name rotates it and keeps its placeholder', async () => {
    const page = await welcomed();
    const first = await page.request('put', { name: 'NPM_TOKEN', value: canary() });
    const second = await page.request('put', { name: 'NPM_TOKEN', value: canary() });
    expect(second.placeholder).to.equal(first.placeholder);
    const { placeholders, scrub } = await page.request('placeholders');
    expect(placeholders).to.deep.equal([first.placeholder]);
    expect(scrub.version).to.equal(2);
  });

  it('put answers EINVAL for each broken rule and stores nothing', async () => {
    const page = await welcomed();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'SHORT', value: 'seven77' }, "values shorter than 8 bytes can't be protected from the model"],
      [{ name: 'LF', value: `${canary()}\nmore` }, 'CR, LF or NUL'],
      [{ name: 'PH', value: `x${'fnox_proxy_'}${'a'.repeat(24)}` }, 'placeholder'],
      [{ name: '1BAD', value: canary() }, 'environment variable name'],
      [{ name: '', value: canary() }, '1 to 128 characters'],
      [{ name: 'A'.repeat(129), value: canary() }, '1 to 128 characters'],
      [{ name: 'GOOD', value: 42 }, 'value must be a string'],
      [{ name: 'GOOD', value: canary(), kind: 'password' }, 'kind must be one of'],
      [{ name: 'bad name', value: canary(), kind: 'model' }, 'may hold only'],
      [{ name: 'GOOD', value: canary(), colour: 'red' }, 'put has no field colour'],
      [{ name: 'GOOD', value: canary(), expiresAt: 'soon' }, 'expiresAt must be a time'],
    ];
    for (const [fields, message] of cases) {
      const reply = await page.request('put', fields);
      expect(reply.error?.code, JSON.stringify(fields)).to.equal('EINVAL');
      expect(reply.error.message).to.include(message);
    }
    const { list } = await page.request('list');
    expect(list.secrets).to.deep.equal([]);
    expect((await page.request('status')).status.scrub).to.deep.equal({ needed: false, version: 0, ready: true });
  });

  it('other kinds may use . : @ / - in their names', async () => {
    const page = await welcomed();
    const reply = await page.request('put', { name: 'openai:default@me/x-1', value: canary(), kind: 'model', provider: 'openai' });
    expect(reply.placeholder).to.match(PLACEHOLDER);
    const { list } = await page.request('list');
    expect(list.secrets[0]).to.include({ kind: 'model', provider: 'openai' });
  });

  it('seal stores a value from a sign-in with its source', async () => {
    const page = await welcomed();
    const reply = await page.request('seal', { name: 'GH_OAUTH', value: canary(), source: 'oauth:github', kind: 'grant', account: 'octocat' });
    expect(reply.placeholder).to.match(PLACEHOLDER);
    const { list } = await page.request('list');
    expect(list.secrets[0]).to.include({ source: 'oauth:github', kind: 'grant', account: 'octocat' });
    const bad = await page.request('seal', { name: 'X_Y', value: canary(), source: 'settings', kind: 'secret' });
    expect(bad.error).to.include({ code: 'EINVAL' });
    expect(bad.error.message).to.include('source must be');
  });

  it('put of a name held by another kind is EEXIST', async () => {
    const page = await welcomed();
    await page.request('put', { name: 'SHARED', value: canary() });
    const reply = await page.request('put', { name: 'SHARED', value: canary(), kind: 'model' });
    expect(reply.error).to.deep.equal({ code: 'EEXIST', message: 'SHARED is already a secret record' });
  });

  it('remove keeps the placeholder, restore brings the record back', async () => {
    const page = await welcomed();
    const { placeholder } = await page.request('put', { name: 'TO_REMOVE', value: canary() });
    expect(await page.request('remove', { name: 'TO_REMOVE' })).to.include({ op: 'remove', state: 'removed' });
    expect((await page.request('placeholders')).placeholders).to.deep.equal([]);
    let { list } = await page.request('list');
    expect(list.secrets[0]).to.include({ state: 'removed', placeholder });
    expect(list.secrets[0].removedAt).to.be.a('number');
    expect(await page.request('restore', { name: 'TO_REMOVE' })).to.include({ op: 'restore', state: 'inert' });
    ({ list } = await page.request('list'));
    expect(list.secrets[0]).to.include({ state: 'inert', placeholder });
    expect(list.audit.map((e: any) => e.type)).to.deep.equal(['restore', 'remove', 'seal']);
  });

  it('remove and restore answer ENOENT without a record', async () => {
    const page = await welcomed();
    expect((await page.request('remove', { name: 'NOPE' })).error.code).to.equal('ENOENT');
    await page.request('put', { name: 'HERE', value: canary() });
    expect((await page.request('restore', { name: 'HERE' })).error).to.deep.equal({ code: 'ENOENT', message: 'there is no removed record named HERE' });
  });

  it('audit pages newest first with before, limit and next', async () => {
    const page = await welcomed();
    for (let i = 0; i < 5; i++) await page.request('put', { name: `K${i}`, value: canary() });
    const first = await page.request('audit', { limit: 2 });
    expect(first.audit.map((e: any) => e.name)).to.deep.equal(['K4', 'K3']);
    expect(first.more).to.equal(true);
    const second = await page.request('audit', { before: first.next, limit: 2 });
    expect(second.audit.map((e: any) => e.name)).to.deep.equal(['K2', 'K1']);
    const last = await page.request('audit', { before: second.next, limit: 2 });
    expect(last.audit.map((e: any) => e.name)).to.deep.equal(['K0']);
    expect(last.more).to.equal(false);
    expect(last).to.not.have.property('next');
    expect((await page.request('audit', { limit: 0 })).error.code).to.equal('EINVAL');
    expect((await page.request('audit', { limit: 1001 })).error.code).to.equal('EINVAL');
    expect((await page.request('audit', { before: 'x' })).error.code).to.equal('EINVAL');
  });

  it('the backup reminder is due with a secret and dismissed on request', async () => {
    const page = await welcomed();
    expect((await page.request('status')).status.backupReminder).to.equal(null);
    const before = page.events.length;
    await page.request('put', { name: 'DUE', value: canary() });
    const pushed = await page.nextEvent('status', before);
    expect(pushed).to.have.nested.property('status.backupReminder', 'due');
    expect(await page.request('dismissBackupReminder')).to.include({ backupReminder: 'dismissed' });
    expect((await page.request('status')).status.backupReminder).to.equal('dismissed');
  });

  it('lock without a lock set does nothing', async () => {
    const page = await welcomed();
    expect(await page.request('lock')).to.deep.include({ op: 'lock' });
    expect((await page.request('status')).status.locked).to.equal(false);
    expect((await page.request('put', { name: 'STILL_OPEN', value: canary() })).placeholder).to.match(PLACEHOLDER);
  });

  it('unknown ops answer ENOTSUP', async () => {
    const page = await welcomed();
    for (const op of ['frobnicate', 'materialize']) {
      expect((await page.request(op)).error?.code, op).to.equal('ENOTSUP');
    }
  });

  it('cancel of an unknown request is ENOENT', async () => {
    const page = await welcomed();
    expect((await page.request('cancel', { request: 'nope' })).error.code).to.equal('ENOENT');
    expect((await page.request('cancel', {})).error.code).to.equal('EINVAL');
  });

  it('a malformed request is EINVAL with its id, and one without an id is ignored', async () => {
    const page = await welcomed();
    expect(await page.send({ v: 2, id: 9001, op: 'status' }, 9001)).to.deep.equal({ v: 1, id: 9001, error: { code: 'EINVAL', message: 'v must be 1' } });
    expect((await page.send({ v: 1, id: 9002 }, 9002)).error.code).to.equal('EINVAL');
    page.port.postMessage('status');
    page.port.postMessage({ v: 1, op: 'status' });
    const after = await page.request('status');
    expect(after.op).to.equal('status');
  });
});

describe('the agent role', () => {
  beforeEach(resetVault);

  it('answers EACCES for page ops, and its own ops', async () => {
    const agent = await welcomed({ role: 'agent' });
    for (const op of ['status', 'put', 'list', 'sealed', 'forward', 'policy', 'lock']) {
      expect((await agent.request(op)).error?.code, op).to.equal('EACCES');
    }
    expect((await agent.request('records')).records).to.deep.equal([]);
    for (const op of ['redact', 'redactStream', 'push', 'idle', 'end', 'drop', 'endpoints', 'model', 'mcp', 'grant', 'refresh']) {
      expect((await agent.request(op)).error?.code, op).to.equal('EINVAL');
    }
    expect((await agent.request('redact', { texts: ['plain'] })).texts).to.deep.equal(['plain']);
  });

  it('gets no events', async () => {
    const agent = await welcomed({ role: 'agent' });
    const page = await welcomed();
    await page.request('put', { name: 'EVENTFUL', value: canary() });
    await agent.request('redact');
    expect(agent.events).to.deep.equal([]);
    expect(page.events.length).to.be.greaterThan(0);
  });
});

describe('ports', () => {
  beforeEach(resetVault);

  it('answer 1,000 mixed requests sent at once in order, each once', async function () {
    this.timeout(90000);
    const page = await welcomed();
    const ops = ['status', 'placeholders', 'list', 'put', 'audit', 'remove', 'bogus'];
    const sent: number[] = [];
    const all = [];
    for (let i = 0; i < 1000; i++) {
      const op = ops[i % ops.length]!;
      const fields = op === 'put' ? { name: `FIFO_${i % 20}`, value: canary() } : op === 'remove' ? { name: `FIFO_${(i - 2) % 20}` } : {};
      const request = page.request(op, fields);
      all.push(request);
    }
    const answered = await Promise.all(all);
    for (const reply of answered) sent.push(reply.id);
    const replies = page.replies;
    expect(replies.map((r) => r.id)).to.deep.equal(sent);
    expect(new Set(replies.map((r) => r.id)).size).to.equal(1000);
    expect(replies.filter((r) => r.op === 'put' && r.placeholder)).to.have.length(143);
  });

  it('drop queued work when the frame goes away, leaving what committed whole', async () => {
    const page = await welcomed();
    for (let i = 0; i < 50; i++) page.port.postMessage({ v: 1, id: 50000 + i, op: 'put', name: `CLOSING_${String(i).padStart(2, '0')}`, value: canary() });
    await new Promise((resolve) => {
      page.port.addEventListener('message', ({ data }) => data.id === 50002 && resolve(null));
    });
    page.frame!.remove();
    const other = await welcomed();
    const { list } = await other.request('list');
    const names: string[] = list.secrets.map((s: any) => s.name);
    expect(names.length).to.be.within(3, 49);
    // Whatever was stored is a prefix of what was sent, each record whole: nothing later slipped in.
    expect(names).to.deep.equal(Array.from({ length: names.length }, (_, i) => `CLOSING_${String(i).padStart(2, '0')}`));
    expect((await other.request('audit', { limit: 100 })).audit).to.have.length(names.length);
    expect((await other.request('status')).status.scrub.version).to.equal(names.length);
  });
});

describe('events across documents and namespaces', () => {
  beforeEach(resetVault);

  it('every page port of the namespace, in another frame too, sees the change', async () => {
    const a = await welcomed();
    const b = await welcomed();
    const before = b.events.length;
    const { placeholder } = await a.request('put', { name: 'SEEN', value: canary() });
    const pushed = await b.nextEvent('placeholders', before);
    expect(pushed).to.deep.include({ placeholders: [placeholder] });
    expect((await b.request('placeholders')).placeholders).to.deep.equal([placeholder]);
  });

  it('another namespace sees nothing of it', async () => {
    const mine = await welcomed();
    const theirs = await welcomed({ embedder: origins.other });
    await mine.request('put', { name: 'MINE_ONLY', value: canary() });
    await theirs.request('status');
    expect(theirs.events.filter((e) => e.op === 'placeholders')).to.deep.equal([]);
    expect((await theirs.request('list')).list.secrets).to.deep.equal([]);
    expect((await theirs.request('remove', { name: 'MINE_ONLY' })).error.code).to.equal('ENOENT');
    const { status } = await theirs.request('status');
    expect(status.scrub).to.deep.equal({ needed: false, version: 0, ready: true });
    const { placeholder } = await theirs.request('put', { name: 'MINE_ONLY', value: canary() });
    expect((await mine.request('placeholders')).placeholders).to.not.include(placeholder);
  });
});

describe('canaries', () => {
  it('no sealed value crossed any port or reached a console line in this file', async () => {
    expect(canaries_used()).to.be.greaterThan(10);
    expect(findCanaries(crossed)).to.deep.equal([]);
    const lines = (await executeServerCommand('console-lines')) as string[];
    expect(findCanaries(lines)).to.deep.equal([]);
  });
});

function canaries_used() {
  return crossed.length;
}
