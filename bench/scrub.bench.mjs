// Scrubber throughput, compile time and memory against TextDecoder, modern-ahocorasick and one
// indexOf per pattern, in Node and in Chromium. `node bench/scrub.bench.mjs [--mib N] [--node-only]`.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { CHROMIUM_ARGS, findChromium } from '../scripts/chromium.mjs';

const args = process.argv.slice(2);
const sizeMiB = Number(args[args.indexOf('--mib') + 1]) || 64;
const entry = fileURLToPath(new URL('./scrub-core.mjs', import.meta.url));
const bundle = (format) =>
  build({ entryPoints: [entry], bundle: true, format, globalName: 'ScrubBench', platform: 'neutral', mainFields: ['module', 'main'], write: false, logLevel: 'error' }).then((r) => r.outputFiles[0].text);

const slice = (mib) => (mib < sizeMiB - 0.5 ? ` (${fmt(mib, mib < 10 ? 1 : 0)} MiB)` : '');
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–');
function table(title, { sizeMiB, rows }) {
  const lines = [
    `${title}, ${sizeMiB} MiB of generated JSON, logs and source code:`,
    '',
    '| values | patterns | compile ms | tables KiB | heap Δ MiB | scrub MiB/s | stream MiB/s | TextDecoder MiB/s | modern-ahocorasick MiB/s | indexOf MiB/s | × aho | × indexOf | ÷ TextDecoder |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.values} | ${r.patterns} | ${fmt(r.compileMs, 1)} | ${fmt(r.tableBytes / 1024)} | ${fmt(r.heapBytes / 2 ** 20, 1)} | ${fmt(r.scrub)} | ${fmt(r.stream)} | ${fmt(r.decode)} | ${fmt(r.aho, 1)}${slice(r.ahoSliceMiB)} | ${fmt(r.naive, 1)}${slice(r.naiveSliceMiB)} | ${fmt(r.scrub / r.aho, 1)} | ${fmt(r.scrub / r.naive, 1)} | ${fmt(r.decode / r.scrub, 1)} |`);
  }
  return lines.join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'scrub-bench-'));
try {
  const file = join(dir, 'bench.mjs');
  writeFileSync(file, await bundle('esm'));
  const { runBench } = await import(pathToFileURL(file).href);
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const memory = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  console.log(`Node ${process.version}`);
  const node = runBench({ sizeMiB, gc, memory, log: (s) => console.log(`  ${s}`) });

  let chromium = null;
  const executablePath = process.env.CHROME_PATH || findChromium();
  if (args.includes('--node-only') || !executablePath) {
    if (!args.includes('--node-only')) console.log('No Chromium found (set CHROME_PATH): skipping the browser run.');
  } else {
    const { chromium: launcher } = await import('playwright-core');
    const browser = await launcher.launch({ executablePath, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      page.on('console', (m) => console.log(`  ${m.text()}`));
      await page.addScriptTag({ content: await bundle('iife') });
      console.log(`Chromium ${browser.version()}`);
      chromium = await page.evaluate((sizeMiB) => globalThis.ScrubBench.runBench({ sizeMiB, log: (s) => console.log(s) }), sizeMiB);
    } finally {
      await browser.close();
    }
  }
  console.log();
  console.log(table(`Node ${process.version}`, node));
  if (chromium) console.log('\n' + table('Chromium', chromium));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
