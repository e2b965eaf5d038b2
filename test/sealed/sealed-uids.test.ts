// /dev/sealed under generated use by three users at once (README, /dev/sealed): random sequences of
// seals, value requests, status and cancel from uids 1000, 1001 and root, and the page's puts,
// through the gateway over a real vault, each reply checked against a model written for the test.
// A user rotates only a value its own uid sealed, sees and cancels only its own requests, and has
// one pending at a time; root may do all of it; no reply carries a value.
import { expect, waitUntil } from '@open-wc/testing';
import { deleteDB } from 'idb';
import type { Stamp } from '../../src/contract.ts';
import { openVaultDb } from '../../src/store/index.ts';
import { Gateway } from '../../src/gateway/index.ts';
import { Vault } from '../../src/core/index.ts';
import { helloPort } from '../helpers/gateway.ts';
import { prng } from '../helpers/random.ts';
import { canary, findCanaries } from '../helpers/vault.ts';

const NS = 'https://seven.sliccy.ai';
const config = { name: 'test', passphraseIterations: 1000, requestLifetimeMs: 300_000 };
const UIDS = [1000, 1001, 0];
const stampOf = (uid: number): Stamp => ({ pid: 100 + uid, ppid: 1, uid, gid: uid, tag: `u${uid}` });

/** The model: who last wrote each name, and each request's owner and whether it is pending. */
interface Model {
  records: Map<string, { source: 'process' | 'settings'; uid?: number }>;
  requests: Map<string, { uid: number; pending: boolean }>;
}

describe('/dev/sealed with three users', () => {
  for (const seed of [11, 12, 13]) {
    it(`keeps each user to its own values and requests over 150 generated steps (seed ${seed})`, async function () {
      this.timeout(60_000);
      const dbName = `sealed-uids-${crypto.randomUUID()}`;
      const db = await openVaultDb(dbName);
      const vault = await Vault.open({ db, config });
      try {
        const parent = {};
        const gateway = new Gateway(vault, [NS], { parent, location: { ancestorOrigins: undefined } } as unknown as Window);
        const { port, messages } = await helloPort(gateway, parent, NS);
        let id = 0;
        const ask = async (op: string, fields: object) => {
          const want = ++id;
          port.postMessage({ v: 1, id: want, op, ...fields });
          await waitUntil(() => messages.some((m) => m.id === want), `no reply to ${op}`, { interval: 1, timeout: 10_000 });
          return messages.find((m) => m.id === want);
        };
        const sealed = async (uid: number, req: object) => (await ask('sealed', { req, stamp: stampOf(uid) })).reply;

        const model: Model = { records: new Map(), requests: new Map() };
        const random = prng(seed);
        const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
        for (let step = 0; step < 150; step++) {
          const uid = pick(UIDS);
          const r = random();
          if (r < 0.3) {
            const name = pick(['A', 'B', 'C']);
            const reply = await sealed(uid, { op: 'seal', name, value: canary('sealed') });
            const held = model.records.get(name);
            const allowed = !held || uid === 0 || (held.source === 'process' && held.uid === uid);
            if (allowed) {
              expect(reply.error, `uid ${uid} seals ${name} over ${JSON.stringify(held)}`).to.equal(undefined);
              model.records.set(name, { source: 'process', uid });
            } else {
              expect(reply.error?.code, `uid ${uid} seals ${name} over ${JSON.stringify(held)}`).to.equal('EEXIST');
            }
          } else if (r < 0.4) {
            const name = pick(['A', 'B', 'C']);
            expect((await ask('put', { name, value: canary('put') })).error).to.equal(undefined);
            model.records.set(name, { source: 'settings' });
          } else if (r < 0.6) {
            const reply = await sealed(uid, { op: 'request', kind: 'value', name: pick(['WANTED_1', 'WANTED_2']) });
            const pending = [...model.requests.values()].some((q) => q.uid === uid && q.pending);
            if (pending) expect(reply.error?.code, `a second pending request of uid ${uid}`).to.equal('EAGAIN');
            else {
              expect(reply.error).to.equal(undefined);
              model.requests.set(reply.id, { uid, pending: true });
            }
          } else if (r < 0.75) {
            const reply = await sealed(uid, { op: 'status' });
            const mine = [...model.requests].filter(([, q]) => uid === 0 || q.uid === uid).map(([k]) => k);
            expect(reply.requests.map((q: { id: string }) => q.id).sort(), `uid ${uid}'s status`).to.deep.equal(mine.sort());
          } else {
            const target = random() < 0.85 && model.requests.size > 0 ? pick([...model.requests.keys()]) : crypto.randomUUID();
            const owner = model.requests.get(target);
            const visible = owner !== undefined && (uid === 0 || owner.uid === uid);
            const op = random() < 0.5 ? 'cancel' : 'status';
            const reply = await sealed(uid, { op, id: target });
            if (!visible) {
              expect(reply.error, `uid ${uid} ${op}s a request it may not see`).to.deep.equal({ code: 'ENOENT', message: 'there is no request with that id' });
            } else if (op === 'cancel') {
              expect(reply.error).to.equal(undefined);
              owner!.pending = false;
            } else {
              expect(reply).to.include({ id: target, state: owner!.pending ? 'pending' : 'cancelled' });
            }
          }
        }
        expect(findCanaries(messages), 'a value crossed the port').to.deep.equal([]);
      } finally {
        vault.close();
        db.close();
        await deleteDB(dbName);
      }
    });
  }
});
