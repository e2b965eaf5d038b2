// Port round trips: `status` requests per second through the real gateway in Chromium, next to a
// bare MessageChannel echo across the same two origins, measured in the same run; then `redact`
// throughput through the agent port against the same messages through that echo. The core part and
// `redact` also measure each figure's floor (bench/floor.ts) against the same baseline.
// `node bench/port.bench.mjs [--count N] [--redact-mib N] [--values N] [--records N] [--runs N]
// [--only status|core|redact] [--profile FILE]` (one part only; a CPU profile of the gateway's
// first measure in the status part, the puts in the core part, the measuring in the redact part;
// `NO_MINIFY=1` keeps the site's names in it).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildSite } from '../scripts/build.mjs';
import { serveDist } from '../scripts/serve-dist.mjs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../scripts/chromium.mjs';
import { benchOrigins } from './origins.mjs';

const args = process.argv.slice(2);
const count = Number(args[args.indexOf('--count') + 1]) || 3000;
const redactMiB = Number(args[args.indexOf('--redact-mib') + 1]) || 16;
const redactValues = Number(args[args.indexOf('--values') + 1]) || 1000;
const coreRecords = Number(args[args.indexOf('--records') + 1]) || 1000;
const coreRuns = Number(args[args.indexOf('--runs') + 1]) || 5;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
const profile = args.includes('--profile') ? args[args.indexOf('--profile') + 1] : null;
const part = (name) => only === null || only === name;
const f = (n) => Math.round(n).toLocaleString('en');
const fmt1 = (n) => n.toFixed(1);
const { embedder, vault, stop } = await benchOrigins();
// The built site, with the bare echo beside its documents, at a third origin. The echo's module is
// named by its content too, so the browser may keep it as it keeps the frame's (README, Documents
// and hosting).
const dist = await mkdtemp(join(tmpdir(), 'slicc-vault-bench-'));
await buildSite(`${dist}/`);
// The echo and the floors (bench/floor.ts), each named by its content.
const builtFile = async (name) => {
  const out = await build({
    entryPoints: [fileURLToPath(new URL(`./${name}.ts`, import.meta.url))],
    outdir: dist,
    entryNames: '[name]-[hash]',
    metafile: true,
    bundle: true,
    format: 'esm',
    logLevel: 'warning',
  });
  return basename(Object.keys(out.metafile.outputs).find((f) => f.endsWith('.js')));
};
const page = (title, file) => `<!doctype html>\n<meta charset="utf-8" />\n<title>${title}</title>\n<script type="module" src="./${file}"></script>\n`;
await writeFile(`${dist}/echo.html`, page('bare MessageChannel echo', await builtFile('echo')));
await writeFile(`${dist}/floor.html`, page('the floors', await builtFile('floor')));
await writeFile(`${dist}/embedders.json`, JSON.stringify([embedder]));
const distServer = await serveDist({ dir: dist, embedders: [embedder] });
const built = `http://localhost:${distServer.address().port}`;
/** The first profile the page brackets with console.profile (bench/port-page.ts), in `.recorded`. */
async function recordProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  const recorded = new Promise((resolve) => cdp.on('Profiler.consoleProfileFinished', (e) => resolve(e.profile)));
  await cdp.send('Profiler.enable');
  // A sample every 25 µs: at the default 1 ms, 1,000 pushes of 30 µs give a hundred samples.
  await cdp.send('Profiler.setSamplingInterval', { interval: 25 });
  return { recorded };
}
// `gc()` for the pages: each redact measurement starts on a collected heap (bench/port-page.ts).
const browser = await chromium.launch({ executablePath: ensureChromium(), args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc'] });
try {
  if (part('status')) {
    const page = await browser.newPage();
    const prof = profile ? await recordProfile(page) : null;
    await page.goto(`${embedder}/bench/port.html?vault=${encodeURIComponent(vault)}`);
    await page.waitForFunction(() => window.benchReady);
    const { gateway, echo } = await page.evaluate((n) => window.runBench(n), count);
    if (prof) await writeFile(profile, JSON.stringify(await prof.recorded));
    console.log(`Port round trips in Chromium, ${count} status requests each:\n`);
    console.log('| | gateway (status) req/s | bare echo req/s | gateway ÷ echo |');
    console.log('|---|---:|---:|---:|');
    console.log(`| one in flight | ${f(gateway.sequential)} | ${f(echo.sequential)} | ${(gateway.sequential / echo.sequential).toFixed(2)} |`);
    console.log(`| all sent at once | ${f(gateway.pipelined)} | ${f(echo.pipelined)} | ${(gateway.pipelined / echo.pipelined).toFixed(2)} |`);
  }
  if (part('core')) {
    // The vault core's figures (README, Benchmarks), against the built site (what production
    // serves: one bundle, not the development modules). Boot with no records first, in a fresh
    // profile; the rest in a namespace of 1,000 records, in another.
    const emptyContext = await browser.newContext();
    const emptyPage = await emptyContext.newPage();
    await emptyPage.goto(`${embedder}/bench/port.html?vault=${encodeURIComponent(built)}&echo=/echo.html&floor=/floor.html`);
    await emptyPage.waitForFunction(() => window.benchReady);
    const empty = await emptyPage.evaluate((runs) => window.runBootEmpty(runs), coreRuns);
    await emptyContext.close();
    const coreContext = await browser.newContext();
    const corePage = await coreContext.newPage();
    await corePage.goto(`${embedder}/bench/port.html?vault=${encodeURIComponent(built)}&echo=/echo.html&floor=/floor.html`);
    await corePage.waitForFunction(() => window.benchReady);
    const coreProfile = profile ? await recordProfile(corePage) : null;
    const c = await corePage.evaluate(([records, runs]) => window.runCore(records, runs), [coreRecords, coreRuns]);
    if (coreProfile) await writeFile(profile, JSON.stringify(await coreProfile.recorded));
    await coreContext.close();
    const ms = (n) => (n < 1 ? `${Math.round(n * 1000)} µs` : `${n.toFixed(2)} ms`);
    const verdict = (ok) => (ok ? 'met' : '**not met**');
    const r = c.ratios;
    console.log(`\nThe vault core in Chromium, ${c.records} records, medians of ${c.runs} runs of each figure's ratio to its baseline in the same run:\n`);
    console.log('| figure | vault | baseline | ratio | target | |');
    console.log('|---|---:|---:|---:|---:|---|');
    const row = (name, vault, base, ratio, target, ok) => console.log(`| ${name} | ${vault} | ${base} | ${ratio.toFixed(2)}× | ${target} | ${verdict(ok)} |`);
    row('`status` round trips, one in flight', '', 'echo', r.sequential, '≥ 0.85×', r.sequential >= 0.85);
    row('`status` round trips, 1,000 pipelined', '', 'echo', r.pipelined, '≥ 0.85×', r.pipelined >= 0.85);
    console.log(
      `| the floor of \`status\` (an echo replying the vault's status), one in flight / pipelined | | echo | ${r.sequentialFloor.toFixed(2)}× / ${r.pipelinedFloor.toFixed(2)}× | | |`,
    );
    row('1 KiB `push`, p50', ms(c.raw.pushP50), ms(c.raw.pushEchoP50), r.pushP50, '≤ 1.3×', r.pushP50 <= 1.3);
    row('1 KiB `push`, p99', '', '', r.pushP99, '≤ 1.5×', r.pushP99 <= 1.5);
    row('frame boot to `welcome`, 0 records', ms(empty.vault), ms(empty.echo), empty.ratio, '≤ 1.5×', empty.ratio <= 1.5);
    row(`frame boot to \`welcome\`, ${c.records} records`, ms(c.raw.boot), ms(c.raw.bootEcho), r.boot, '≤ 1.5×', r.boot <= 1.5);
    console.log(
      `| the boot's floor (the echo reading two JSON files and opening a database), 0 / ${c.records} records | ${ms(empty.floor)} / ${ms(c.raw.bootFloor)} | echo | ${empty.floorRatio.toFixed(2)}× / ${r.bootFloor.toFixed(2)}× | | |`,
    );
    row(`\`put\` (a new name among ${c.records}), p50`, ms(c.raw.putP50), ms(c.raw.writeP50), r.putP50, '≤ 2×', r.putP50 <= 2);
    row(`\`put\` (a new name among ${c.records}), p99`, ms(c.raw.putP99), ms(c.raw.writeP99), r.putP99, '≤ 2×', r.putP99 <= 2);
    console.log(
      `| the floor of \`put\` (a put's transaction, sealed, and its \`placeholders\` event, in a bare document), p50 | ${ms(c.raw.putFloorP50)} | ${ms(c.raw.writeP50)} | ${r.putFloorP50.toFixed(2)}× | | |`,
    );
    console.log(
      `\nA fresh profile's first boot, which makes the key, took ${ms(empty.first)} (not counted above). ` +
        "The bench page is cross-origin isolated, as bios is; `push` times are means of batches of 10 (its timer ticks in 5 µs steps); `put`'s baseline is one readwrite transaction of the same name and value in a bare document at the vault origin.",
    );
    console.log(
      `Each run's ratios: ${Object.entries(c.each)
        .map(([k, xs]) => `${k} ${xs.map((x) => x.toFixed(2)).join('/')}`)
        .join('; ')}.`,
    );
  }
  if (part('redact')) {
    // On a page of its own, against the built site as the core part: it adds the values, then
    // opens an agent port.
    const redactContext = await browser.newContext();
    const redactPage = await redactContext.newPage();
    await redactPage.goto(`${embedder}/bench/port.html?vault=${encodeURIComponent(built)}&echo=/echo.html&floor=/floor.html`);
    await redactPage.waitForFunction(() => window.benchReady);
    const recorded = profile ? await recordProfile(redactPage) : null;
    const r = await redactPage.evaluate(([mib, values, runs]) => window.runRedact(mib, values, runs), [redactMiB, redactValues, coreRuns]);
    if (recorded) await writeFile(profile, JSON.stringify(await recorded.recorded));
    await redactContext.close();
    console.log(
      `\n\`redact\` through the agent port in Chromium, ${r.values} values, 1 MiB requests of 16 strings (${r.hits} hits in ${fmt1(r.mib)} MiB), medians of ${r.runs} runs of ${fmt1(r.mib)} MiB each side, the two taking turns to go first:\n`,
    );
    console.log('| | redact MiB/s | bare echo MiB/s | redact ÷ echo | target | |');
    console.log('|---|---:|---:|---:|---|---|');
    const ratio = r.redact / r.echo;
    console.log(`| one in flight | ${fmt1(r.redact)} | ${fmt1(r.echo)} | ${ratio.toFixed(2)} | ≥ 0.6× | ${ratio >= 0.6 ? 'met' : '**not met**'} |`);
    console.log(`| the floor (each text read once and one span replaced) | ${fmt1(r.floor)} | ${fmt1(r.echo)} | ${(r.floor / r.echo).toFixed(2)} | | |`);
    const each = (side) => side.map((v, i) => (v / r.rates.echo[i]).toFixed(2)).join(', ');
    console.log(`\nEach run's ratio: ${each(r.rates.vault)}; the floor's: ${each(r.rates.floor)}.`);
  }
} finally {
  await browser.close();
  await stop();
  distServer.close();
  await rm(dist, { recursive: true, force: true });
}
