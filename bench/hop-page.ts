// Runs on the vault origin, for bench/hop.bench.mjs: what a 1 KiB `push` would cost if its scan
// ran in a worker (README, Limits: heavy work), measured beside the scan on this thread as the
// vault does it, with a scrubber of 1,000 values in both places.
import { compileScrubber } from '../src/scrub/index.ts';

const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const values = Array.from({ length: 1000 }, (_, i) => ({
  name: `BENCH_${i}`,
  placeholder: `fnox_proxy_${i.toString(16).padStart(24, '0')}`,
  value: `sk-${Array.from({ length: 16 + (i % 48) }, (_, k) => alnum[(i * 31 + k * 7) % alnum.length]).join('')}`,
}));
const line = (i: number) => `2026-11-30T10:00:${String(i % 60).padStart(2, '0')}Z INFO [worker-${i % 8}] GET /api/v1/items/${i} 200 ${i % 900}ms ok\n`;
const chunk = () =>
  new TextEncoder().encode(
    Array.from({ length: 20 }, (_, i) => line(i))
      .join('')
      .slice(0, 1024),
  );

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Per op, µs: `rounds` one after the other, medians of `runs` runs. */
async function time(runs: number, rounds: number, op: () => Promise<unknown> | unknown): Promise<number> {
  const each: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    for (let i = 0; i < rounds; i++) await op();
    each.push(((performance.now() - start) * 1000) / rounds);
  }
  return median(each);
}

(window as any).runHop = async () => {
  const stream = compileScrubber(values).stream();
  const worker = new Worker(new URL('./hop-worker.ts', import.meta.url), { type: 'module' });
  const reply = () => new Promise((resolve) => worker.addEventListener('message', resolve, { once: true }));
  let ready = reply();
  worker.postMessage({ values });
  await ready;
  const ask = (message: Record<string, Uint8Array>, bytes: Uint8Array) => {
    ready = reply();
    worker.postMessage(message, [bytes.buffer]);
    return ready;
  };
  for (let i = 0; i < 500; i++) {
    stream.push(chunk());
    const c = chunk();
    await ask({ scan: c }, c);
  }
  const result = {
    // The vault's way: the scan on this thread (the `await` as the gateway has one per op).
    mainScan: await time(5, 2000, async () => stream.push(chunk())),
    // The alternative: the chunk to a worker, scanned there, and back.
    workerScan: await time(5, 2000, () => {
      const c = chunk();
      return ask({ scan: c }, c);
    }),
    // A worker round trip that does nothing: the hop alone.
    workerEcho: await time(5, 2000, () => {
      const c = chunk();
      return ask({ echo: c }, c);
    }),
    // Making the chunk, in every figure above.
    makeChunk: await time(5, 2000, async () => chunk()),
  };
  worker.terminate();
  return result;
};
(window as any).hopReady = true;
