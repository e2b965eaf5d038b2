// Scrubber throughput, compile time and memory against TextDecoder, modern-ahocorasick and one
// indexOf per pattern, in Node and in Chromium. `node bench/scrub.bench.mjs [--mib N] [--node-only]`.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { CHROMIUM_ARGS, findChromium } from '../scripts/chromium.mjs';

const args = process.argv.slice(2);
const sizeMiB = Number(args[args.indexOf('--mib') + 1]) || 64;
const entry = fileURLToPath(new URL('./scrub-core.mjs', import.meta.url));
const bundle = (format) =>
  build({
    entryPoints: [entry],
    bundle: true,
    format,
    globalName: 'ScrubBench',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'error',
  }).then((r) => r.outputFiles[0].text);

const slice = (mib) => (Number.isFinite(mib) ? ` (${fmt(mib, mib < 10 ? 1 : 0)} MiB)` : ''); // a prefix, not the whole
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–');
function table(title, { sizeMiB, coldCompileMs, coldValues, rows }) {
  const lines = [
    `${title}, ${sizeMiB} MiB of generated JSON, logs and source code (${coldValues} values compiled cold, first thing: ${fmt(coldCompileMs)} ms):`,
    '',
    '| values | patterns | compile ms | tables KiB | JS heap Δ MiB | scrub MiB/s | stream MiB/s | TextDecoder MiB/s | TextDecoder ÷ scrub | scrub, ASCII copy | TextDecoder, ASCII copy | modern-ahocorasick, ASCII copy | scrub × aho | indexOf MiB/s | scrub × indexOf |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${[
        r.values,
        r.patterns,
        fmt(r.compileMs, 1),
        fmt(r.tableBytes / 1024),
        fmt(r.heapBytes / 2 ** 20, 1),
        fmt(r.scrub),
        fmt(r.stream),
        fmt(r.decode),
        fmt(r.decode / r.scrub, 2),
        fmt(r.scrubAscii),
        fmt(r.decodeAscii),
        `${fmt(r.aho, 1)}${slice(r.ahoSliceMiB)}`,
        fmt(r.scrubAscii / r.aho, 1),
        `${fmt(r.naive, 1)}${slice(r.naiveSliceMiB)}`,
        fmt(r.scrub / r.naive, 0),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** `redact` of strings, log lines beside JSON lines (bench/scrub-core.mjs, `makeLines`). */
function linesTable(title, { sizeMiB, rows }) {
  const lines = [
    `${title}, \`redact\` of ${sizeMiB} MiB strings of log lines and of JSON lines (a value in about one line of 500; in JSON, inside a string, some with a \`\\u\` escape, and every line with escapes), MiB/s:`,
    '',
    '| values | log lines | JSON lines | JSON ÷ log | ASCII values (string scan) | log lines | JSON lines | JSON ÷ log | hits in log / JSON |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const { log, json } = r.lines;
    lines.push(
      `| ${[r.values, fmt(log.all), fmt(json.all), fmt(json.all / log.all, 2), r.asciiValues, fmt(log.ascii), fmt(json.ascii), fmt(json.ascii / log.ascii, 2), `${log.hits} / ${json.hits}`].join(' | ')} |`,
    );
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
  // JS objects only: the tables' typed arrays live outside the heap and are counted exactly by
  // tableBytes, while freed 64 MiB outputs leave arrayBuffers at their own pace.
  const memory = () => process.memoryUsage().heapUsed;
  console.log(
    `Node ${process.version}, load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores`,
  );
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
      // The browser's own start-up work shares the 2 cores for a moment: the cold compile is timed
      // once it has settled, so it measures code the JIT hasn't seen, not the launch.
      await page.waitForTimeout(1000);
      console.log(`Chromium ${browser.version()}`);
      chromium = await page.evaluate((sizeMiB) => globalThis.ScrubBench.runBench({ sizeMiB, log: (s) => console.log(s) }), sizeMiB);
    } finally {
      await browser.close();
    }
  }
  console.log(
    `\nload average at the end ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}\n`,
  );
  console.log(table(`Node ${process.version}`, node));
  console.log('\n' + linesTable(`Node ${process.version}`, node));
  if (chromium) console.log('\n' + table('Chromium', chromium));
  if (chromium) console.log('\n' + linesTable('Chromium', chromium));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
