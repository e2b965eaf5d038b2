// Every test runs in Debian's Chromium, Debian's Firefox ESR and Debian's WebKitGTK (its
// MiniBrowser driven by WebKitWebDriver on a virtual display), never downloaded (README, Tests).
// Beside the test runner's own
// origin (the embedder, http://localhost:PORT) the config serves the vault on a same-site other
// origin, a second allowed embedder, a stranger origin the vault doesn't allow (GAPS section 1), and
// a vault with a malformed embedders.json.
import { readdirSync } from 'node:fs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { puppeteerLauncher } from '@web/test-runner-puppeteer';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import { CHROMIUM_ARGS, ensureChromium } from './scripts/chromium.mjs';
import { ensureFirefox } from './scripts/firefox.mjs';
import { freePort, startWebKit } from './scripts/webkit.mjs';
import { EMBEDDER_HEADERS, startServer, vaultServerConfig } from './scripts/vault-server.mjs';
import { webauthnPlugin } from './test/plugins/webauthn.mjs';
import { agePlugin } from './test/plugins/age.mjs';
import { consolePlugin } from './test/plugins/console.mjs';
import { windowsPlugin } from './test/plugins/windows.mjs';
import { countingReporter } from './test/plugins/counting-reporter.mjs';

const [port, vaultPort, otherPort, strangerPort, brokenPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
const origins = {
  embedder: `http://localhost:${port}`,
  vault: `http://localhost:${vaultPort}`,
  other: `http://localhost:${otherPort}`,
  stranger: `http://localhost:${strangerPort}`,
  broken: `http://localhost:${brokenPort}`,
};
const embedders = [origins.embedder, origins.other];

await Promise.all([
  startServer(vaultServerConfig({ port: vaultPort, embedders, fixtures: true })),
  startServer(vaultServerConfig({ port: otherPort, embedders, fixtures: true })),
  startServer(vaultServerConfig({ port: strangerPort, embedders, fixtures: true })),
  // A vault whose embedders.json is not a list of origins: it must answer nobody.
  startServer(vaultServerConfig({ port: brokenPort, embedders: { origins: embedders }, ancestors: embedders, fixtures: true })),
]);

// Which engines run (README, Tests): all three unless ENGINES names fewer, e.g.
// `ENGINES=chromium npx web-test-runner test/x.test.ts` while working on one file.
const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'];
const ENGINES = (process.env.ENGINES ?? ENGINE_NAMES.join(' ')).split(/[\s,]+/).filter(Boolean);
for (const engine of ENGINES) if (!ENGINE_NAMES.includes(engine)) throw new Error(`ENGINES: unknown engine ${engine} (${ENGINE_NAMES.join(', ')})`);

/**
 * A test needing a facility only Chromium has (CDP: the WebAuthn virtual authenticator, …) says so
 * in its name, or in its describe's: Firefox and WebKit skip every test whose full title contains it.
 */
export const CHROMIUM_ONLY = '(Chromium only)';
/*
 * A test one engine can't run says which and why in its name, or its describe's, as
 * `(not in WebKit: no WebAuthn)`: that engine skips it, the others run it, and so does the rest of
 * its file everywhere (test/helpers/engines.ts keeps the reasons several files share).
 */
/** Whole test files an engine skips (paths from the repo root), for files that can't even load there. */
export const SKIPPED_FILES = { Chromium: [], Firefox: [], WebKit: [] };

/** Firefox and WebKit open a window in 1.5 to 3 s where Chromium takes a fraction of that: their tests get twice the time. */
const SLOWER = 2;

/**
 * An engine's test page: before mocha starts, give each test SLOWER times the time (but in
 * Chromium), and skip (a root beforeEach hook) the tests marked `(not in <engine>: …)`, outside
 * Chromium those marked CHROMIUM_ONLY, and every test of a file in SKIPPED_FILES: they count as
 * skipped there.
 */
const testRunnerHtmlOf = (engine) => (testFramework) =>
  `<!DOCTYPE html><html><head></head><body>
<script type="module">
  const config = window.__WTR_CONFIG__;
  const file = new URL(config.testFile, location.href).pathname.replace(/^\\//, '');
  const whole = ${JSON.stringify(SKIPPED_FILES[engine])}.includes(file);
  const timeout = config.testFrameworkConfig.timeout * ${engine === 'Chromium' ? 1 : SLOWER};
  const marks = ${JSON.stringify([`(not in ${engine}: `, ...(engine === 'Chromium' ? [] : [CHROMIUM_ONLY])])};
  function beforeEach() {
    const title = this.currentTest.fullTitle();
    if (whole || marks.some((mark) => title.includes(mark))) this.skip();
  }
  config.testFrameworkConfig = { ...config.testFrameworkConfig, timeout, rootHooks: { beforeEach } };
</script>
<script type="module" src="${testFramework}"></script></body></html>`;

const chromium = () => chromeLauncher({ launchOptions: { executablePath: ensureChromium(), headless: true, args: CHROMIUM_ARGS } });
const firefox = () => puppeteerLauncher({ launchOptions: { browser: 'firefox', executablePath: ensureFirefox(), headless: true } });
/** WebKit: WebKitWebDriver and Xvfb start with the run and end with it (scripts/webkit.mjs). */
const webkit = async () => {
  const { port, capabilities } = await startWebKit();
  return webdriverLauncher({ hostname: '127.0.0.1', port, capabilities, logLevel: 'error' });
};
/**
 * The stress test (README, Limits) measures main-thread blocks in Chromium: `npm test` runs it on
 * its own after the rest (STRESS=1), so the other browsers' tests don't hold the 2 cores meanwhile.
 */
const STRESS = process.env.STRESS === '1';
const STRESS_FILE = 'test/limits/stress.test.ts';
/**
 * The panel's tests run alone too (PANEL=1, each engine): in Chromium the panel takes input only
 * once IntersectionObserver v2 sees it, which the windows other files leave open can keep from it.
 */
const PANEL = process.env.PANEL === '1';
const PANEL_FILE = 'test/lock/panel.test.ts';
/** Each engine other than Chromium is a group of its own, over the same files, with its own test page. */
const others = STRESS
  ? []
  : [
      ...(ENGINES.includes('firefox') ? [{ name: 'firefox', browsers: [firefox()], testRunnerHtml: testRunnerHtmlOf('Firefox') }] : []),
      ...(ENGINES.includes('webkit') ? [{ name: 'webkit', browsers: [await webkit()], testRunnerHtml: testRunnerHtmlOf('WebKit') }] : []),
    ];
const engines = STRESS
  ? { browsers: [chromium()], testRunnerHtml: testRunnerHtmlOf('Chromium') }
  : ENGINES.includes('chromium')
    ? { browsers: [chromium()], testRunnerHtml: testRunnerHtmlOf('Chromium'), groups: others }
    : others.length === 1
      ? { browsers: others[0].browsers, testRunnerHtml: others[0].testRunnerHtml }
      : { browsers: others[0].browsers, testRunnerHtml: others[0].testRunnerHtml, groups: others.slice(1) };

/**
 * PART=1 or PART=2 runs every other file of the suite (npm test runs Firefox in two halves: one
 * browser over every file ran each test 1.8 times slower by the end than a fresh one).
 */
const PART = Number(process.env.PART) || 0;
/** The files below `dir`, dot-folders left out. */
const filesBelow = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.'))
    .flatMap((e) => (e.isDirectory() ? filesBelow(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
const suiteFiles = () =>
  ['test', 'components', 'src']
    .flatMap(filesBelow)
    .filter((f) => f.endsWith('.test.ts') && f !== STRESS_FILE && f !== PANEL_FILE)
    .sort()
    .filter((_, i) => !PART || i % 2 === PART - 1);

export default {
  files: STRESS ? [STRESS_FILE] : PANEL ? [PANEL_FILE] : suiteFiles(),
  port,
  hostname: 'localhost',
  nodeResolve: true,
  concurrency: 1,
  browserStartTimeout: 60000,
  testsStartTimeout: 60000,
  testsFinishTimeout: 300000,
  testFramework: { config: { timeout: 20000 } },
  ...engines,
  middleware: [
    // The tests' cross-origin isolated embedder is served as bios serves itself (README, Documents and hosting).
    async (ctx, next) => {
      await next();
      if (ctx.path === '/test/fixtures/isolated-embedder.html') ctx.set(EMBEDDER_HEADERS);
    },
  ],
  plugins: [
    esbuildPlugin({ ts: true, target: 'esnext' }),
    webauthnPlugin(),
    consolePlugin(),
    windowsPlugin(),
    agePlugin(),
    {
      name: 'origins',
      serve(context) {
        if (context.path === '/__origins.json') return { body: JSON.stringify(origins), type: 'application/json' };
      },
    },
  ],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter()],
};
