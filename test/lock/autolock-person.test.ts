// Auto-lock counts only the person (README, Key store and lock): the page's own value ops restart
// the idle time; a kernel program's seals and forwards and every agent op leave it running, so a
// program acting every two minutes can't keep the vault open. A real vault and gateway in this
// page, on real IndexedDB, with a clock the test moves by hand.
import { expect, waitUntil } from '@open-wc/testing';
import { deleteDB } from 'idb';
import type { Stamp } from '../../src/contract.ts';
import { Vault } from '../../src/core/index.ts';
import { Gateway } from '../../src/gateway/index.ts';
import { Lock } from '../../src/lock/index.ts';
import { type VaultDb, openVaultDb } from '../../src/store/index.ts';
import { FNOX, attest, fnoxConfig } from '../helpers/attest.ts';
import { helloPort } from '../helpers/gateway.ts';
import { canary } from '../helpers/vault.ts';
import { TestClock } from '../helpers/clock.ts';

const NS = 'https://seven.sliccy.ai';
const MINUTE = 60_000;
const IDLE = 15 * MINUTE;
const PASSPHRASE = 'correct horse battery';
const config = { name: 'test', passphraseIterations: 600_000, requestLifetimeMs: 300_000 };
const kernel: Stamp = { pid: 42, ppid: 1, uid: 1000, gid: 1000, tag: 'cron' };

describe('auto-lock, counting only the person', function () {
  this.timeout(60_000);
  let dbName: string;
  let db: VaultDb;
  let vault: Vault;
  let clock: TestClock;
  let ask: (op: string, fields?: object, role?: 'page' | 'agent', transfer?: Transferable[]) => Promise<any>;

  beforeEach(async () => {
    dbName = `autolock-person-${crypto.randomUUID()}`;
    db = await openVaultDb(dbName);
    clock = new TestClock(Date.UTC(2026, 11, 2));
    vault = await Vault.open({ db, config, now: clock.now, clock });
    const lock = new Lock(db, { iterations: config.passphraseIterations, rpName: 'test', now: clock.now });
    expect(await vault.keys.give((await lock.setPassphrase(PASSPHRASE))!)).to.equal(true);
    await lock.setAutoLock(IDLE);
    await vault.autoLock.arm();
    const parent = {};
    const gateway = new Gateway(vault, [NS], { parent, location: { ancestorOrigins: undefined } } as unknown as Window);
    const ports = { page: await helloPort(gateway, parent, NS, 'page'), agent: await helloPort(gateway, parent, NS, 'agent') };
    let id = 0;
    ask = async (op, fields = {}, role = 'page', transfer = []) => {
      const { port, messages } = ports[role];
      const want = ++id;
      port.postMessage({ v: 1, id: want, op, ...fields }, transfer);
      await waitUntil(() => messages.some((m) => m.id === want), `no reply to ${op}`, { interval: 1, timeout: 10_000 });
      return messages.find((m) => m.id === want);
    };
  });
  afterEach(async () => {
    vault.close();
    db.close();
    await deleteDB(dbName);
  });

  /** Runs `act` every two minutes for `minutes`; answers whether the vault was still open after. */
  async function every2Minutes(minutes: number, act: () => Promise<unknown>) {
    for (let t = 0; t < minutes; t += 2) {
      await act();
      await clock.advance(2 * MINUTE);
    }
    return !vault.locked;
  }

  it('locks on time while a kernel program seals its own value every two minutes', async () => {
    const open = await every2Minutes(20, () => ask('sealed', { req: { op: 'seal', name: 'CRON_TOKEN', value: canary('cron') }, stamp: kernel }));
    expect(open, 'the vault stayed open').to.equal(false);
  });

  it('locks on time while a kernel program forwards an injected request every two minutes', async () => {
    const { placeholder } = await ask('put', { name: 'GITHUB_TOKEN', value: canary('gh') });
    expect((await ask('policy', { files: [await attest(FNOX, fnoxConfig([['GITHUB_TOKEN', placeholder, 'api.github.com']]))] })).accepted).to.equal(true);
    const forward = () => {
      const { port2 } = new MessageChannel();
      const head = { method: 'GET', url: 'https://api.github.com/user', headers: [['authorization', `Bearer ${placeholder}`]] };
      return ask('forward', { head, owner: kernel, exit: 'page', rawTraits: {} }, 'page', [port2]);
    };
    const first = await forward();
    expect(first.head, 'the forward injected').to.be.an('object');
    expect(await every2Minutes(20, forward), 'the vault stayed open').to.equal(false);
  });

  it('locks on time while the agent redacts and streams every two minutes', async () => {
    let n = 0;
    const open = await every2Minutes(20, async () => {
      await ask('redact', { texts: ['some output'] }, 'agent');
      await ask('redactStream', { stream: `s${++n}` }, 'agent');
    });
    expect(open, 'the vault stayed open').to.equal(false);
  });

  it('stays open while the person keeps using the page, and locks the idle time after the last use', async () => {
    expect(await every2Minutes(20, () => ask('put', { name: 'MY_TOKEN', value: canary('mine') }))).to.equal(true);
    // The last put was two minutes ago: 14 minutes after it, still open; 16 after, locked.
    await clock.advance(IDLE - 3 * MINUTE);
    expect(vault.locked).to.equal(false);
    await clock.advance(2 * MINUTE);
    await waitUntil(() => vault.locked, 'the vault never locked after the person left');
  });
});
