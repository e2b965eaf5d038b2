// Every test runs in Debian's Chromium and in Debian's Firefox ESR, headless, never downloaded
// (README, Tests: two engines). Beside the test runner's own
// origin (the embedder, http://localhost:PORT) the config serves the vault on a same-site other
// origin, a second allowed embedder, a stranger origin the vault doesn't allow (GAPS section 1), and
// a vault with a malformed embedders.json.
import { createServer } from 'node:net';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { puppeteerLauncher } from '@web/test-runner-puppeteer';
import { CHROMIUM_ARGS, ensureChromium } from './scripts/chromium.mjs';
import { ensureFirefox } from './scripts/firefox.mjs';
import { EMBEDDER_HEADERS, startServer, vaultServerConfig } from './scripts/vault-server.mjs';
import { webauthnPlugin } from './test/plugins/webauthn.mjs';
import { agePlugin } from './test/plugins/age.mjs';
import { consolePlugin } from './test/plugins/console.mjs';
import { windowsPlugin } from './test/plugins/windows.mjs';
import { countingReporter } from './test/plugins/counting-reporter.mjs';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

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

// Which engines run (README, Tests: two engines): both unless ENGINES names fewer, e.g.
// `ENGINES=chromium npx web-test-runner test/x.test.ts` while working on one file.
const ENGINES = (process.env.ENGINES ?? 'chromium firefox').split(/[\s,]+/).filter(Boolean);
for (const engine of ENGINES) if (engine !== 'chromium' && engine !== 'firefox') throw new Error(`ENGINES: unknown engine ${engine} (chromium, firefox)`);

/**
 * A test needing a facility only Chromium has (CDP: the WebAuthn virtual authenticator, …) says so
 * in its name, or in its describe's: Firefox skips every test whose full title contains this mark.
 */
export const CHROMIUM_ONLY = '(Chromium only)';
/** Whole test files Firefox skips (paths from the repo root), for files that can't even load there. */
export const CHROMIUM_ONLY_FILES = [];

/** Firefox opens a window in 1.5 to 3 s where Chromium takes a fraction of that: its tests get twice the time. */
const FIREFOX_SLOWER = 2;

/**
 * Firefox's test page: before mocha starts, give each test FIREFOX_SLOWER times the time, and skip
 * (a root beforeEach hook) the tests marked CHROMIUM_ONLY and every test of a file in
 * CHROMIUM_ONLY_FILES: they count as skipped in Firefox.
 */
const firefoxTestRunnerHtml = (testFramework) => `<!DOCTYPE html><html><head></head><body>
<script type="module">
  const config = window.__WTR_CONFIG__;
  const file = new URL(config.testFile, location.href).pathname.replace(/^\\//, '');
  const whole = ${JSON.stringify(CHROMIUM_ONLY_FILES)}.includes(file);
  const timeout = config.testFrameworkConfig.timeout * ${FIREFOX_SLOWER};
  function beforeEach() {
    if (whole || this.currentTest.fullTitle().includes(${JSON.stringify(CHROMIUM_ONLY)})) this.skip();
  }
  config.testFrameworkConfig = { ...config.testFrameworkConfig, timeout, rootHooks: { beforeEach } };
</script>
<script type="module" src="${testFramework}"></script></body></html>`;

const chromium = () => chromeLauncher({ launchOptions: { executablePath: ensureChromium(), headless: true, args: CHROMIUM_ARGS } });
const firefox = () => puppeteerLauncher({ launchOptions: { browser: 'firefox', executablePath: ensureFirefox(), headless: true } });
// Chromium runs the default group; Firefox its own group, over the same files, with its own page.
/**
 * The stress test (README, Limits) measures main-thread blocks in Chromium: `npm test` runs it on
 * its own after the rest (STRESS=1), so the other browser's tests don't hold the 2 cores meanwhile.
 */
const STRESS = process.env.STRESS === '1';
const STRESS_FILE = 'test/limits/stress.test.ts';
const engines = STRESS
  ? { browsers: [chromium()] }
  : !ENGINES.includes('chromium')
    ? { browsers: [firefox()], testRunnerHtml: firefoxTestRunnerHtml }
    : {
        browsers: [chromium()],
        groups: ENGINES.includes('firefox') ? [{ name: 'firefox', browsers: [firefox()], testRunnerHtml: firefoxTestRunnerHtml }] : [],
      };

export default {
  files: STRESS ? [STRESS_FILE] : ['test/**/*.test.ts', 'components/**/*.test.ts', 'src/**/*.test.ts', `!${STRESS_FILE}`],
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
