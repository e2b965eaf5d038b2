import { expect, waitUntil } from '@open-wc/testing';
import { FNOX, attest, fnoxConfig } from '../helpers/attest.ts';
import { canary, crossed, findCanaries, resetVault, welcomed } from '../helpers/vault.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const b64 = (s: string) => btoa(String.fromCharCode(...enc.encode(s)));

describe('the agent ops', () => {
  beforeEach(resetVault);

  it('redact scrubs strings and bytes in order and type, raw to the placeholder, encoded to [redacted:NAME]', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const value = canary('redact');
    const { placeholder } = await page.request('put', { name: 'API_KEY', value });
    const reply = await agent.request('redact', { texts: [`token=${value};`, enc.encode(`b64 ${b64(value)} end`), 'nothing here'] });
    expect(reply.op).to.equal('redact');
    expect(reply.texts[0]).to.equal(`token=${placeholder};`);
    expect(reply.texts[1]).to.be.instanceOf(Uint8Array);
    expect(dec.decode(reply.texts[1])).to.match(/^b64 .*\[redacted:API_KEY\].* end$/);
    expect(dec.decode(reply.texts[1])).to.not.include(b64(value).slice(4, 20));
    expect(reply.texts[2]).to.equal('nothing here');
    expect(reply.hits).to.deep.include({ name: 'API_KEY', form: 'raw', count: 1 });
    expect(reply.hits.find((h: any) => h.form === 'base64').count).to.equal(1);
    expect(reply.version).to.equal(1);
  });

  it('redact answers EINVAL for texts that are not strings or bytes', async () => {
    const agent = await welcomed({ role: 'agent' });
    expect((await agent.request('redact', { texts: [1] })).error).to.deep.equal({ code: 'EINVAL', message: 'texts must be a list of strings and Uint8Arrays' });
    expect((await agent.request('redact', { texts: [], colour: 1 })).error.message).to.equal('redact takes only texts');
  });

  it('a stream releases what cannot become a match at once and scrubs the rest at its end', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const value = canary('stream');
    const { placeholder } = await page.request('put', { name: 'STREAMED', value });
    const opened = await agent.request('redactStream', { stream: 's1' });
    expect(opened).to.include({ stream: 's1', idleMs: 250, version: 1 });
    const text = `hello ${value} world`;
    let out = '';
    for (const byte of enc.encode(text))
      out += dec.decode((await agent.request('push', { stream: 's1', chunk: new Uint8Array([byte]) })).chunk, { stream: true });
    const end = await agent.request('end', { stream: 's1' });
    out += dec.decode(end.chunk);
    expect(out).to.equal(`hello ${placeholder} world`);
    expect(end.hits).to.deep.equal([{ name: 'STREAMED', form: 'raw', count: 1 }]);
    expect((await agent.request('push', { stream: 's1', chunk: new Uint8Array([1]) })).error.code).to.equal('ENOENT');
  });

  it('idle releases nothing until 250 ms after the last push, measured by the vault, then the whole held tail', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const value = `IDLE-${canary('idle')}`;
    const { placeholder } = await page.request('put', { name: 'IDLE', value });
    await agent.request('redactStream', { stream: 'slow' });
    const pushed = performance.now();
    expect((await agent.request('push', { stream: 'slow', chunk: enc.encode(`x ${value.slice(0, 16)}`) })).chunk.length).to.equal(0);
    expect((await agent.request('idle', { stream: 'slow' })).chunk.length, 'right after the push').to.equal(0);
    let released = new Uint8Array(0);
    await waitUntil(async () => (released = (await agent.request('idle', { stream: 'slow' })).chunk).length > 0, 'idle releases', {
      timeout: 3000,
      interval: 50,
    });
    expect(performance.now() - pushed).to.be.at.least(250);
    expect(dec.decode(released)).to.equal(`x ${value.slice(0, 16)}`);
    // The value completes after the pause: its rest never goes out.
    const rest = await agent.request('push', { stream: 'slow', chunk: enc.encode(`${value.slice(16)} done`) });
    const end = await agent.request('end', { stream: 'slow' });
    expect(dec.decode(rest.chunk) + dec.decode(end.chunk)).to.equal('[redacted:IDLE] done');
    expect(end.hits).to.deep.equal([{ name: 'IDLE', form: 'partial', count: 1 }]);
    expect(placeholder).to.be.a('string');
  });

  it('takes stream ids of 1 to 64 characters of A-Z a-z 0-9 . _ : - and answers EINVAL for others without echoing them', async () => {
    const agent = await welcomed({ role: 'agent' });
    for (const id of ['a', 'run-1.2:out_x', 'Z'.repeat(64)]) expect((await agent.request('redactStream', { stream: id })).stream).to.equal(id);
    for (const id of ['', 'Z'.repeat(65), 'has space', 'slash/y', 'ünï', 'tab\t', '<b>', 7, null, ['a']]) {
      for (const op of ['redactStream', 'push', 'idle', 'end', 'drop']) {
        const { error } = await agent.request(op, { stream: id, ...(op === 'push' && { chunk: new Uint8Array(1) }) });
        expect(error, `${op} ${JSON.stringify(id)}`).to.deep.equal({
          code: 'EINVAL',
          message: 'stream must be an id of 1 to 64 characters of A-Z a-z 0-9 . _ : -',
        });
      }
    }
    expect((await agent.request('push', { stream: 'nope', chunk: new Uint8Array(1) })).error).to.deep.equal({
      code: 'ENOENT',
      message: 'there is no open stream with that id',
    });
    expect((await agent.request('redactStream', { stream: 'a' })).error).to.deep.equal({ code: 'EINVAL', message: 'that stream is already open' });
  });

  it('never answers with a value, whatever field of whatever op the agent puts it in', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const value = canary('field');
    await page.request('put', { name: 'FIELD', value });
    const hex = Array.from(enc.encode(value), (b) => b.toString(16).padStart(2, '0')).join('');
    const fieldsOf: Record<string, string[]> = {
      redact: ['texts'],
      redactStream: ['stream'],
      push: ['stream', 'chunk'],
      idle: ['stream'],
      end: ['stream'],
      drop: ['stream'],
      endpoints: ['model', 'mcp'],
    };
    const ops = [...Object.keys(fieldsOf), 'status', 'model', 'records'];
    for (const form of [value, b64(value), hex, encodeURIComponent(value), `id:${value}`, `${'x'.repeat(40)}${value}`]) {
      const shapes: unknown[] = [
        form,
        enc.encode(form),
        [form],
        [enc.encode(form)],
        { [form]: form },
        [{ server: form, url: `https://${form}.example.com/`, names: [form] }],
        [{ server: 's', url: 'https://mcp.example.com/', [form]: 1 }],
        [`https://${form}.example.com/?${form}`],
      ];
      await agent.request(form);
      await agent.request(form.slice(0, 64), { ['f'.repeat(65)]: 1 });
      await agent.send({ v: form, id: 1e9, op: 'redact', texts: [] }, 1e9);
      for (const op of ops) {
        await agent.request(op, { [form]: form });
        for (const field of fieldsOf[op] ?? ['stream']) for (const shape of shapes) await agent.request(op, { [field]: shape });
      }
      // A value as a stream id is a valid id: it comes back scrubbed, and the stream works.
      const opened = await agent.request('redactStream', { stream: form.slice(0, 64) });
      for (const op of ['push', 'idle', 'end', 'drop']) await agent.request(op, { stream: form.slice(0, 64), chunk: enc.encode(form) });
      if (opened.stream && form.length <= 64) expect(opened.stream).to.not.equal(form);
    }
    expect(agent.replies.length).to.be.greaterThan(400);
    expect(findCanaries(agent.replies)).to.deep.equal([]);
  });

  it('a value rotated while a stream is open makes its next push EAGAIN, and the stream is gone', async () => {
    const page = await welcomed();
    // One frame for both ports, as bios has it: a push reads no IndexedDB, so in another
    // document it would follow the rotation once that document's notice came (README, Scrub state).
    const agent = await welcomed({ role: 'agent', frame: page.frame! });
    await page.request('put', { name: 'ROTATED', value: canary() });
    await agent.request('redactStream', { stream: 'old' });
    await page.request('put', { name: 'ROTATED', value: canary() });
    const reply = await agent.request('push', { stream: 'old', chunk: enc.encode('text') });
    expect(reply.error.code).to.equal('EAGAIN');
    expect((await agent.request('end', { stream: 'old' })).error.code).to.equal('ENOENT');
    const again = await agent.request('redactStream', { stream: 'old' });
    expect(again.version).to.equal(2);
  });

  it("in another document, a stream's push follows a rotation once that document's notice came, and is then EAGAIN", async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    await page.request('put', { name: 'ROTATED', value: canary() });
    await agent.request('redactStream', { stream: 's' });
    await page.request('put', { name: 'ROTATED', value: canary() });
    let code: string | undefined;
    await waitUntil(
      async () => (code = (await agent.request('push', { stream: 's', chunk: enc.encode('x') })).error?.code) !== undefined,
      'the push sees the rotation',
      {
        timeout: 5000,
      },
    );
    expect(code).to.equal('EAGAIN');
  });

  it('opens at most 64 streams per port: the 65th is EAGAIN until one is dropped', async () => {
    const agent = await welcomed({ role: 'agent' });
    for (let i = 0; i < 64; i++) expect((await agent.request('redactStream', { stream: `s${i}` })).stream).to.equal(`s${i}`);
    expect((await agent.request('redactStream', { stream: 's64' })).error).to.deep.equal({
      code: 'EAGAIN',
      message: 'at most 64 streams may be open on a port',
    });
    expect(await agent.request('drop', { stream: 's0' })).to.deep.include({ op: 'drop' });
    expect((await agent.request('redactStream', { stream: 's64' })).stream).to.equal('s64');
    const other = await welcomed({ role: 'agent' });
    expect((await other.request('redactStream', { stream: 'x' })).stream, 'the limit is per port').to.equal('x');
  });

  it('endpoints registers model and MCP URLs, which refuse rules that reach only them', async () => {
    const page = await welcomed();
    const agent = await welcomed({ role: 'agent' });
    const { placeholder } = await page.request('put', { name: 'GH', value: canary() });
    const { placeholder: m } = await page.request('put', { name: 'LOCAL_MODEL', value: canary() });
    await page.request('policy', {
      files: [
        await attest(
          FNOX,
          fnoxConfig([
            ['GH', placeholder, 'api.github.com'],
            ['LOCAL_MODEL', m, 'llm.example.com'],
          ]),
        ),
      ],
    });
    expect((await page.request('list')).list.refused).to.deep.equal([]);
    expect(
      await agent.request('endpoints', {
        model: ['https://llm.example.com/'],
        mcp: [{ server: 'tools', url: 'https://mcp.example.com/mcp', names: ['tools-token'] }],
      }),
    ).to.deep.include({ ok: true });
    const state = (e: any, name: string) => e.secrets.find((s: any) => s.name === name)?.state;
    await page.until((e) => e.op === 'changed' && state(e, 'GH') === 'active' && state(e, 'LOCAL_MODEL') === 'inert');
    const { list } = await page.request('list');
    expect(list.refused).to.deep.equal([
      {
        secret: 'LOCAL_MODEL',
        rule: { domain: 'llm.example.com', header: 'authorization', methods: [], paths: [] },
        reason: 'LOCAL_MODEL: host is a model or MCP endpoint; the vault never injects there',
      },
    ]);
    expect((await agent.request('endpoints', { model: ['http://llm.example.com/'] })).error.code).to.equal('EINVAL');
    expect((await agent.request('endpoints', { mcp: ['http://8080.kernel.localhost/mcp'] })).ok).to.equal(true);
    expect((await agent.request('endpoints', { mcp: ['http://9222.kernel.localhost/mcp'] })).error.code).to.equal('EINVAL');
    expect((await agent.request('endpoints', {})).error.code).to.equal('EINVAL');
  });
});

describe('the agent port', () => {
  it('never received a value in this file', () => {
    expect(crossed.length).to.be.greaterThan(100);
    expect(findCanaries(crossed)).to.deep.equal([]);
  });
});
