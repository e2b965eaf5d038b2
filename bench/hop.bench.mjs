// Scanning in a worker, measured (README, Limits: heavy work): on the vault origin in Chromium, a
// 1 KiB chunk scanned by a stream of a 1,000-value scrubber on the main thread (the vault's way),
// beside the same chunk sent to a worker holding the same scrubber, scanned there and sent back,
// and a bare worker round trip. Then the port bench's 1 KiB `push` figure is what the hop would
// add to. `node bench/hop.bench.mjs`
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { benchOrigins } from './origins.mjs';

const { vault, stop } = await benchOrigins();
const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  await page.goto(`${vault}/bench/hop.html`);
  await page.waitForFunction(() => window.hopReady);
  const r = await page.evaluate(() => window.runHop());
  const f = (n) => `${n.toFixed(1)} µs`.padStart(9);
  const less = (n) => n - r.makeChunk;
  console.log('A 1 KiB chunk, 1,000 values, Chromium, per op (median of 5 runs of 2,000; making the chunk taken out):');
  console.log(`  scan on the main thread (the vault's way):      ${f(less(r.mainScan))}`);
  console.log(`  sent to a worker, scanned there, sent back:     ${f(less(r.workerScan))}`);
  console.log(`  a bare worker round trip (the hop alone):       ${f(less(r.workerEcho))}`);
  console.log(
    `  a push through the worker would cost about ${f(less(r.workerScan) - less(r.mainScan))} more than now, and hold the main thread ${f(less(r.mainScan))} less`,
  );
} finally {
  await browser.close();
  await stop();
}
