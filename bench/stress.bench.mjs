// The longest main-thread block per hostile input class (README, Limits), in Chromium: each class's
// ops through the real vault and the same messages to a bare echo document, while a heartbeat in
// the embedder (whose main thread the same-site vault frame shares) measures; with the JS heap
// after a collection before and after. `node bench/stress.bench.mjs`
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { startServer, vaultServerConfig } from '../scripts/vault-server.mjs';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const [embedderPort, vaultPort] = await Promise.all([freePort(), freePort()]);
const embedder = `http://localhost:${embedderPort}`;
const vault = `http://localhost:${vaultPort}`;
const servers = await Promise.all([
  startServer(vaultServerConfig({ port: vaultPort, embedders: [embedder], fixtures: true })),
  startServer(vaultServerConfig({ port: embedderPort, embedders: [embedder], fixtures: true })),
]);
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
  await Promise.all(servers.map((s) => s.stop()));
}
