// The longest main-thread block per hostile input class (README, Limits), in Chromium: each class's
// ops through the real vault and the same messages to a bare echo document, while a heartbeat in
// the embedder (whose main thread the same-site vault frame shares) measures; with the JS heap
// after a collection before and after. `node bench/stress.bench.mjs [--class TEXT] [--repeat N] [--profile FILE]`
// (only the classes whose name holds TEXT; every class N times in a row; a CPU profile of the run
// written to FILE).
import { writeFileSync } from 'node:fs';
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
  const args = process.argv.slice(2);
  const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const profile = option('--profile');
  await page.goto(`${embedder}/bench/stress.html?vault=${encodeURIComponent(vault)}`);
  await page.waitForFunction(() => window.stressReady);
  const before = await heap();
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  const results = await page.evaluate(([only, repeat]) => window.runStress(only, repeat), [option('--class') ?? '', Number(option('--repeat') ?? 1)]);
  if (profile) writeFileSync(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
  const after = await heap();
  const f = (n) => n.toFixed(1);
  console.log('Longest main-thread block per op, Chromium, embedder heartbeat (ms):\n');
  console.log('| class | ops | vault | echo | vault − echo (worst op) | worst op | refused |');
  console.log('|---|---:|---:|---:|---:|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.ops} | ${f(r.vaultMs)} | ${f(r.echoMs)} | ${f(r.worstExcessMs)} | ${r.worstOp} | ${r.errors.map((e) => e.split(':')[0]).join(', ') || '–'} |`,
    );
  }
  console.log(`\nJS heap after a collection: ${f(before)} MiB before the classes, ${f(after)} MiB after.`);
} finally {
  await browser.close();
  await stop();
}
