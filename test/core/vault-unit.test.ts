// The vault built directly, in this page (README, Scrub state): each served namespace lives in
// memory, follows this document's own writes and other documents' notices, and reloads when it
// missed one. Two Vault objects on one database stand for two vault documents.
import { expect, waitUntil } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { CHANNEL } from '../../src/store/index.ts';
import { openVaultDb } from '../../src/store/index.ts';
import { AgentSession } from '../../src/agent/index.ts';
import { Records } from '../../src/store/index.ts';
import { Vault } from '../../src/core/index.ts';
import { canary } from '../helpers/vault.ts';

/** A notice between documents can take over waitUntil's default second on a loaded machine. */
const LOADED = { timeout: 5000 };

const NS = 'https://seven.sliccy.ai';
const config = { name: 'test', passphraseIterations: 1000, requestLifetimeMs: 300_000 };
const secret = (name: string) => ({ name, value: canary(), kind: 'secret' as const, source: 'settings' as const });
const names = async (vault: Vault) => (await vault.reads.list(NS)).secrets.map((s) => s.name);

describe('the vault, built directly', () => {
  let dbName: string;
  const opened: Vault[] = [];
  const dbs: { close(): void }[] = [];
  const open = async () => {
    const db = await openVaultDb(dbName);
    const vault = await Vault.open({ db, config });
    dbs.push(db);
    opened.push(vault);
    await vault.served.serve(NS);
    return vault;
  };

  beforeEach(() => {
    dbName = `vault-unit-${crypto.randomUUID()}`;
  });
  afterEach(async () => {
    for (const vault of opened.splice(0)) vault.close();
    for (const db of dbs.splice(0)) db.close();
    await deleteDB(dbName);
  });

  it('shows its own write at once, and the other document shows it from the notice', async () => {
    const [a, b] = [await open(), await open()];
    await a.writes.put(NS, secret('FIRST'));
    expect(await names(a)).to.deep.equal(['FIRST']);
    await waitUntil(async () => (await names(b)).includes('FIRST'), 'the other document never saw the write', LOADED);
    expect((await b.reads.status(NS)).scrub.version).to.equal((await a.reads.status(NS)).scrub.version);
  });

  it('says in welcome the status it then keeps in memory, for namespaces of every shape', async () => {
    const a = await open();
    /** A document's first welcome of NS (from the small read), then its status once NS is in memory. */
    const welcomeAndStatus = async () => {
      const db = await openVaultDb(dbName);
      const vault = await Vault.open({ db, config });
      dbs.push(db);
      opened.push(vault);
      const welcome = await vault.reads.welcome(NS);
      return { welcome, status: await vault.reads.status(NS) };
    };
    const seen: unknown[] = [];
    const check = async () => {
      const { welcome, status } = await welcomeAndStatus();
      expect(welcome).to.deep.equal(status);
      seen.push(status.backupReminder);
    };
    await check(); // no record
    for (let i = 0; i < 10; i++) await a.writes.put(NS, { ...secret(`MODEL_${i}`), kind: 'model' as const });
    await check(); // records, none of them a secret
    for (let i = 0; i < 30; i++) await a.writes.put(NS, secret(`OLD_${i}`));
    for (let i = 0; i < 30; i++) await a.writes.remove(NS, `OLD_${i}`);
    await check(); // 40 records, none a live secret: more than the small read looks at
    // The one secret back is the last in the namespace index's order, past what the small read sees.
    const db = await openVaultDb(dbName);
    const inOrder = await db.getAllFromIndex('records', 'byNamespace', NS);
    db.close();
    const last = inOrder.filter((r) => r.kind === 'secret').at(-1)!;
    expect(inOrder.indexOf(last)).to.be.at.least(16);
    await a.writes.restore(NS, last.name);
    await check(); // a live secret
    await a.writes.request(NS, { kind: 'backup' });
    await check(); // a pending request
    await a.writes.dismissBackupReminder(NS);
    await check(); // the reminder dismissed
    expect(seen).to.deep.equal([null, null, null, 'due', 'due', 'dismissed']);
  });

  it('welcomes the namespace it expected from the read made as it opened, unless a notice of it came first', async () => {
    const a = await open();
    await a.writes.put(NS, secret('BEFORE'));
    /** A document that expects NS's hello (as a frame knows its parent), and its first notice. */
    const expecting = async () => {
      const db = await openVaultDb(dbName);
      const vault = await Vault.open({ db, config, expected: NS });
      dbs.push(db);
      opened.push(vault);
      const noticed = new Promise<void>((resolve) => vault.onChange((namespace) => void (namespace === NS && resolve())));
      return { vault, noticed };
    };
    const quiet = await expecting();
    const welcome = await quiet.vault.reads.welcome(NS);
    expect(welcome).to.deep.equal(await quiet.vault.reads.status(NS));
    expect(welcome.backupReminder).to.equal('due');

    // The read went out at open, before this write: after its notice, the read is stale and unused.
    const { vault, noticed } = await expecting();
    await a.writes.request(NS, { kind: 'backup' });
    await noticed;
    const after = await vault.reads.welcome(NS);
    expect(after.waiting.map((r) => r.kind)).to.deep.equal(['backup']);
    expect(after).to.deep.equal(await vault.reads.status(NS));
  });

  it('drops the read made as it opened when a notice came while it waited for its settings', async () => {
    const a = await open();
    const db = await openVaultDb(dbName);
    dbs.push(db);
    let settingsIn!: (c: typeof config) => void;
    const opening = Vault.open({ db, config: new Promise((resolve) => (settingsIn = resolve)), expected: NS });
    // Its reads went out, then this write; a channel made after the vault's hears the notice after it.
    const heard = new Promise<void>((resolve) => {
      const listener = new BroadcastChannel(CHANNEL);
      listener.onmessage = () => {
        listener.close();
        resolve();
      };
    });
    await a.writes.request(NS, { kind: 'backup' });
    await heard;
    settingsIn(config);
    const vault = await opening;
    opened.push(vault);
    const welcome = await vault.reads.welcome(NS);
    expect(welcome.waiting.map((r) => r.kind)).to.deep.equal(['backup']);
    expect(welcome).to.deep.equal(await vault.reads.status(NS));
  });

  it('reloads the namespace when it missed a notice', async () => {
    const [a, b] = [await open(), await open()];
    await a.writes.put(NS, secret('SEEN'));
    await waitUntil(async () => (await names(b)).includes('SEEN'), 'the other document never saw the write', LOADED);
    // A write no notice tells of: the next notice's revision skips one, and b reads again.
    const db = await openVaultDb(dbName);
    await new Records(db).write(NS, a.keys.key!, secret('MISSED'));
    db.close();
    expect(await names(b)).to.deep.equal(['SEEN']);
    await a.writes.put(NS, secret('NEXT'));
    await waitUntil(async () => (await names(b)).length === 3, 'the other document never reloaded', LOADED);
    expect(await names(b)).to.deep.equal(['MISSED', 'NEXT', 'SEEN']);
  });

  it('redacts a value another document wrote before its notice came: the stored revision is read before the reply', async () => {
    const [a, b] = [await open(), await open()];
    await a.writes.put(NS, secret('SEEN'));
    await waitUntil(async () => (await names(b)).includes('SEEN'), 'the other document never saw the write', LOADED);
    // A write no notice tells of: b can learn of it only from the stored revision.
    const missed = secret('MISSED');
    const db = await openVaultDb(dbName);
    await new Records(db).write(NS, a.keys.key!, missed);
    db.close();
    expect(await names(b)).to.deep.equal(['SEEN']);
    const reply = (await new AgentSession(b, NS).reply({ op: 'redact', texts: [`before ${missed.value} after`] })) as { texts: string[] };
    expect(reply.texts[0]).to.not.include(missed.value);
    expect(reply.texts[0]).to.match(/^before fnox_proxy_[0-9a-f]{24} after$/);
  });

  it('answers a value request in the same write as its record', async () => {
    const vault = await open();
    const request = await vault.writes.request(NS, { kind: 'value', name: 'ASKED', uid: 1000, tag: 't' });
    expect((await vault.reads.status(NS)).waiting.map((r) => r.id)).to.deep.equal([request.id]);
    await vault.writes.put(NS, secret('ASKED'), request.id);
    expect((await vault.reads.status(NS)).waiting).to.deep.equal([]);
    expect((await vault.reads.requestOf(NS, request.id)).state).to.equal('done');
    let code = '';
    await vault.writes.put(NS, secret('ASKED'), request.id).catch((e) => (code = e.code));
    expect(code).to.equal('ENOENT');
  });

  it('refuses a rotation judged against a record another document has since rotated, then retries on the fresh one', async () => {
    const [a, b] = [await open(), await open()];
    await a.writes.put(NS, secret('ROTATED'));
    await waitUntil(async () => (await names(b)).includes('ROTATED'), 'the other document never saw the write', LOADED);
    const before = (await b.reads.record(NS, 'ROTATED'))!;
    await a.writes.put(NS, secret('ROTATED'));
    // b still holds the older revision in memory until the notice lands; its write must not undo a's.
    await b.writes.put(NS, secret('ROTATED'));
    const db = await openVaultDb(dbName);
    const stored = await new Records(db).get(NS, 'ROTATED');
    db.close();
    expect(stored!.revision).to.equal((before.revision ?? 0) + 2);
  });
});
