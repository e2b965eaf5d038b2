import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import pkg from '../../package.json' with { type: 'json' };
import { origins } from '../helpers/origins.ts';
import { addFrame, answered, connect, loaded, resetVault, VaultClient, welcomed } from '../helpers/vault.ts';

describe('the hello handshake', () => {
  beforeEach(resetVault);

  it('welcomes an allowed parent with its role and the status of its namespace', async () => {
    const client = await connect();
    const first = await answered(client, 10000);
    expect(first?.op).to.equal('welcome');
    if (first?.op !== 'welcome') return;
    expect(first.v).to.equal(1);
    expect(first.role).to.equal('page');
    expect(first.status.origin).to.equal(origins.embedder);
    expect(first.status).to.include({ version: pkg.version, protocol: 1, locked: false, lock: null, exportedAt: null, backupReminder: null });
    expect(first.status.scrub).to.deep.equal({ needed: false, version: 0, ready: true });
    expect(first.status.waiting).to.deep.equal([]);
    expect(first.status.policy).to.deep.equal([]);
  });

  it('welcomes the agent role', async () => {
    const first = await answered(await connect({ role: 'agent' }), 10000);
    expect(first).to.include({ op: 'welcome', role: 'agent' });
  });

  it('refuses another protocol version', async () => {
    const first = await answered(await connect({ v: 2 }), 10000);
    expect(first?.op).to.equal('refused');
    expect(first).to.have.nested.property('error.code', 'ENOTSUP');
  });

  it('refuses an unknown role', async () => {
    const first = await answered(await connect({ role: 'admin' }), 10000);
    expect(first?.op).to.equal('refused');
    expect(first).to.have.nested.property('error.code', 'EINVAL');
  });

  it('welcomes an allowed embedder on another origin, as its own namespace', async () => {
    const client = await welcomed({ embedder: origins.other });
    const { status } = await client.request('status');
    expect(status.origin).to.equal(origins.other);
  });

  it('does not answer a hello from an origin embedders.json does not list', async () => {
    expect(await answered(await connect({ embedder: origins.stranger }), 2500)).to.equal(null);
  });

  it('answers nobody when embedders.json is malformed, and says why on the console (not in WebKit: its WebDriver reads no line a frame says as it starts)', async () => {
    await executeServerCommand('console-start');
    expect(await answered(await connect({ vault: origins.broken }), 2500)).to.equal(null);
    // The line comes once the frame has read embedders.json, which a loaded machine may take longer for.
    const said = 'slicc-vault: answering nobody: embedders.json must be a JSON array of origins';
    let lines: string[] = [];
    await waitUntil(async () => (lines = (await executeServerCommand('console-lines')) as string[]).includes(said), 'the console line', {
      timeout: 10000,
    }).catch(() => undefined);
    expect(lines, JSON.stringify(lines)).to.include(said);
  });

  it('does not answer a hello from a sibling iframe', async () => {
    const vault = addFrame(`${origins.vault}/`);
    const sibling = addFrame('about:blank');
    await loaded(vault);
    const channel = new MessageChannel();
    // A function of the sibling's realm posts, so the message's source is the sibling window.
    const post = new (sibling.contentWindow as any).Function('w', 'm', 'o', 'p', 'w.postMessage(m, o, p)');
    post(vault.contentWindow, { type: 'slicc-vault', v: 1, op: 'hello', role: 'page' }, origins.vault, [channel.port2]);
    expect(await answered(new VaultClient(channel.port1), 2000)).to.equal(null);
  });

  it('does not answer a hello from a window that is not its parent, but does from the parent', async () => {
    const middle = addFrame('about:blank');
    const inner = middle.contentDocument!.createElement('iframe');
    inner.src = `${origins.vault}/`;
    middle.contentDocument!.body.append(inner);
    await loaded(inner);
    const hello = { type: 'slicc-vault', v: 1, op: 'hello', role: 'page' };

    const fromTop = new MessageChannel();
    inner.contentWindow!.postMessage(hello, origins.vault, [fromTop.port2]);
    expect(await answered(new VaultClient(fromTop.port1), 2000)).to.equal(null);

    const fromParent = new MessageChannel();
    const post = new (middle.contentWindow as any).Function('w', 'm', 'o', 'p', 'w.postMessage(m, o, p)');
    post(inner.contentWindow, hello, origins.vault, [fromParent.port2]);
    expect((await answered(new VaultClient(fromParent.port1), 5000))?.op).to.equal('welcome');
  });

  it('holds a hello sent before the frame loaded its settings and answers it', async () => {
    const frame = addFrame(`${origins.vault}/`);
    // No waiting for load: the hello goes as soon as the frame's window exists.
    await new Promise((r) => setTimeout(r, 0));
    const channel = new MessageChannel();
    const client = new VaultClient(channel.port1, frame);
    await loaded(frame);
    frame.contentWindow!.postMessage({ type: 'slicc-vault', v: 1, op: 'hello' }, origins.vault, [channel.port2]);
    expect((await answered(client, 5000))?.op).to.equal('welcome');
  });
});
