// The longest main-thread block per hostile input class (README, Limits), in Chromium: each class's
// ops through the real vault and the same messages to a bare echo document, while a heartbeat in
// the embedder (whose main thread the same-site vault frame shares) measures; with the JS heap
// after a collection before and after. `node bench/stress.bench.mjs`
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { benchOrigins } from './origins.mjs';

const { embedder, vault, stop } = await benchOrigins();
const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize / 2 ** 20;
  };
  await page.goto(`${embedder}/bench/stress.html?vault=${encodeURIComponent(vault)}`);
  await page.waitForFunction(() => window.stressReady);
  const before = await heap();
  const results = await page.evaluate(() => window.runStress());
  const after = await heap();
  const f = (n) => n.toFixed(1);
  console.log('Longest main-thread block per op, Chromium, embedder heartbeat (ms):\n');
  console.log('| class | ops | vault | echo | vault − echo (worst op) | refused |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.ops} | ${f(r.vaultMs)} | ${f(r.echoMs)} | ${f(r.worstExcessMs)} | ${r.errors.map((e) => e.split(':')[0]).join(', ') || '–'} |`,
    );
  }
  console.log(`\nJS heap after a collection: ${f(before)} MiB before the classes, ${f(after)} MiB after.`);
} finally {
  await browser.close();
  await stop();
}
