// Pipelined pushes give the thread back (README, Limits): 64 agent pushes of 2 MiB sent at once
// share the thread's slices, so no run of them holds the main thread (which is also the
// embedder's) over 50 ms more than the same messages to a bare echo port do. A real vault and
// gateway in this page, on real IndexedDB, with a heartbeat beside them.
import { expect, waitUntil } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { Vault } from '../../src/core/index.ts';
import { Gateway } from '../../src/gateway/index.ts';
import { openVaultDb } from '../../src/store/index.ts';
import { helloPort } from '../helpers/gateway.ts';
import { besideBaseline } from '../helpers/heartbeat.ts';
import { canary } from '../helpers/vault.ts';

const NS = 'https://seven.sliccy.ai';
const config = { name: 'test', passphraseIterations: 600_000, requestLifetimeMs: 300_000 };
const PUSHES = 64;
// Just under 2 MiB, so that 64 of them, with their fields, fit in an agent port's 128 MiB queue.
const CHUNK = (2 << 20) - 1024;

/** Log-like text of `bytes` bytes, a value in it now and then. */
function chunkOf(bytes: number, value: string): Uint8Array {
  const line = `2026-12-02T07:00:00Z info request served in 12 ms ${value}\n`;
  const text = line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
  return new TextEncoder().encode(text);
}

describe('pipelined pushes', function () {
  this.timeout(120_000);

  it('of 64 chunks of 2 MiB hold the thread at most 50 ms longer than an echo of the same messages', async () => {
    const dbName = `pushes-${crypto.randomUUID()}`;
    const db = await openVaultDb(dbName);
    const vault = await Vault.open({ db, config });
    try {
      const parent = {};
      const gateway = new Gateway(vault, [NS], { parent, location: { ancestorOrigins: undefined } } as unknown as Window);
      const page = await helloPort(gateway, parent, NS, 'page');
      const value = canary('push');
      page.port.postMessage({ v: 1, id: 1, op: 'put', name: 'PUSHED_TOKEN', value });
      await waitUntil(() => page.messages.some((m) => m.id === 1), 'no put reply');
      const agent = await helloPort(gateway, parent, NS, 'agent');
      agent.port.postMessage({ v: 1, id: 1, op: 'redactStream', stream: 's' });
      await waitUntil(() => agent.messages.some((m) => m.id === 1), 'no stream');
      const chunks = Array.from({ length: PUSHES }, () => chunkOf(CHUNK, value));

      // The baseline: the same messages to a bare echo port of this page, answered as they come,
      // measured beside the vault's pushes in the same run (test/helpers/heartbeat.ts).
      const echo = new MessageChannel();
      let echoed = 0;
      echo.port2.onmessage = ({ data }) => echo.port2.postMessage(data, [data.chunk.buffer]);
      echo.port1.onmessage = () => echoed++;
      const replies = () => agent.messages.filter((m) => typeof m.id === 'number' && m.id >= 2);
      let next = 2;
      let chunked = 0;
      const beat = await besideBaseline(
        async () => {
          for (const chunk of chunks) agent.port.postMessage({ v: 1, id: next++, op: 'push', stream: 's', chunk });
          await waitUntil(() => replies().length === PUSHES, 'not every push was answered', { interval: 5, timeout: 60_000 });
          // Counted, then let go: up to five runs of 128 MiB of replies would otherwise stay.
          chunked += replies().filter((m) => m.chunk instanceof Uint8Array).length;
          agent.messages.length = 0;
        },
        async () => {
          const until = echoed + PUSHES;
          for (const [i, chunk] of chunks.entries()) echo.port1.postMessage({ v: 1, id: i, op: 'push', stream: 's', chunk: chunk.slice() });
          await waitUntil(() => echoed === until, 'not every echo came back', { interval: 5, timeout: 60_000 });
        },
      );
      echo.port1.close();
      expect(chunked, 'every push answered with a chunk').to.equal(next - 2);
      const held = beat.longest;
      const bare = beat.baseline;
      console.log(`pipelined pushes: the vault held the thread ${held.toFixed(1)} ms at most, the echo ${bare.toFixed(1)} ms`);
      expect(held - bare, 'ms the vault held the thread beyond the echo').to.be.below(50);
    } finally {
      vault.close();
      db.close();
      await deleteDB(dbName);
    }
  });
});
