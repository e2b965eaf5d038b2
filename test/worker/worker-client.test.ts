// The vault's worker, supervised (README, Limits): a worker that closes itself, or stops answering,
// is ended and its jobs go to a new one, once; a job that gets no answer twice fails EAGAIN within
// its bound, so no request waits forever; a worker that can't load leaves its jobs to run in place.
// Real workers of this page, some of them made to go away from inside (test/fixtures/worker-*.ts).
import { expect, waitUntil } from '@open-wc/testing';
import { Scrubbers } from '../../src/core/index.ts';
import { VaultError } from '../../src/errors.ts';
import type { HeldKey, StoredRecord } from '../../src/store/index.ts';
import { encryptValue } from '../../src/store/index.ts';
import { VaultWorker } from '../../src/worker/index.ts';

/** The bound of a job that goes nowhere; one that must be answered gets a real worker's time to load. */
const BOUND = 400;
const LOAD = 10_000;
const fixture = (name: string) => () => new URL(`/test/fixtures/${name}.ts`, location.href);
const values = [{ name: 'TOKEN', placeholder: 'fnox_proxy_000000000000000000000001', value: 'a-value-of-the-vault' }];

async function rejection(work: Promise<unknown>): Promise<VaultError> {
  try {
    await work;
  } catch (error) {
    expect(error).to.be.instanceOf(VaultError);
    return error as VaultError;
  }
  throw new Error('the job was answered');
}

describe("the vault's worker, supervised", () => {
  const made: VaultWorker[] = [];
  const worker = (name: string, bound = BOUND) => {
    const w = new VaultWorker(fixture(name), bound);
    made.push(w);
    return w;
  };
  afterEach(() => {
    for (const w of made.splice(0)) w.close();
  });

  it('fails a job EAGAIN within twice its bound when every worker it goes to closes itself', async () => {
    const start = performance.now();
    const error = await rejection(worker('worker-closes').compile(values));
    const took = performance.now() - start;
    expect(error.code).to.equal('EAGAIN');
    expect(error.message).to.equal("the vault's worker stopped answering; try again");
    expect(took).to.be.at.least(2 * BOUND - 20);
    expect(took).to.be.below(2 * BOUND + 5000);
  });

  it('runs a job again on a new worker when the one it went to stops answering', async function () {
    this.timeout(4 * LOAD);
    // Bounded by how long a module worker takes to load here (the dev server compiles it first).
    const w = worker('worker-closes-after-one', LOAD);
    expect((await w.compile(values)).redact('say a-value-of-the-vault').text).to.equal('say fnox_proxy_000000000000000000000001');
    // The second job goes to a worker that closes itself; a new worker answers it.
    expect((await w.compile(values)).redact('a-value-of-the-vault!').text).to.equal('fnox_proxy_000000000000000000000001!');
  });

  it("runs a job in place when the worker can't load: its script is missing", async () => {
    // A bound a loaded machine's 404 and error event fit in: the test is of the fallback, not of time.
    expect((await worker('no-such-worker', 10_000).compile(values)).redact('a-value-of-the-vault').text).to.equal('fnox_proxy_000000000000000000000001');
  });
});

describe('the scrub state with a worker that went away', () => {
  it('says ready false, not true, once a compile asked for with the key never came back, and the op that needs it is answered', async () => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const held: HeldKey = { key, check: 'c', epoch: 0 };
    const record = { id: 'r1', namespace: 'ns', name: 'TOKEN', placeholder: values[0]!.placeholder, revision: 1, updatedAt: 1 };
    const stored = { ...record, ...(await encryptValue(key, values[0]!.value, record)) } as unknown as StoredRecord;
    let holding: HeldKey | null = held;
    const w = new VaultWorker(fixture('worker-closes'), BOUND);
    const scrubbers = new Scrubbers(
      async () => ({ version: 1, records: [stored] }),
      () => holding,
      undefined,
      w,
    );
    try {
      scrubbers.soon('ns');
      // The compile was asked for with the key: ready while it is on its way, even once locked.
      holding = null;
      expect(scrubbers.ready('ns')).to.equal(true);
      const error = await rejection(scrubbers.refresh('ns', held));
      expect(error.code).to.equal('EAGAIN');
      await waitUntil(() => !scrubbers.ready('ns'), 'ready stayed true for a scrubber that is not there', { timeout: 5 * BOUND });
      expect(scrubbers.get('ns')).to.equal(undefined);
    } finally {
      scrubbers.close();
    }
  });
});
