// Every test runs in Debian's Chromium, headless, never downloaded. Beside the test runner's own
// origin (the embedder, http://localhost:PORT) the config serves the vault on a same-site other
// origin, a second allowed embedder, a stranger origin the vault doesn't allow (GAPS section 1), and
// a vault with a malformed embedders.json.
import { createServer } from 'node:net';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { CHROMIUM_ARGS, ensureChromium } from './scripts/chromium.mjs';
import { startServer, vaultServerConfig } from './scripts/vault-server.mjs';
import { webauthnPlugin } from './test/plugins/webauthn.mjs';
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
  startServer(vaultServerConfig({ port: vaultPort, embedders })),
  startServer(vaultServerConfig({ port: otherPort, embedders })),
  startServer(vaultServerConfig({ port: strangerPort, embedders })),
  // A vault whose embedders.json is not a list of origins: it must answer nobody.
  startServer(vaultServerConfig({ port: brokenPort, embedders: { origins: embedders }, ancestors: embedders })),
]);

const executablePath = ensureChromium();

export default {
  files: ['test/**/*.test.ts', 'components/**/*.test.ts', 'src/**/*.test.ts'],
  port,
  hostname: 'localhost',
  nodeResolve: true,
  concurrency: 1,
  browserStartTimeout: 60000,
  testsStartTimeout: 60000,
  testsFinishTimeout: 300000,
  testFramework: { config: { timeout: 20000 } },
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath, headless: true, args: CHROMIUM_ARGS },
    }),
  ],
  plugins: [
    esbuildPlugin({ ts: true, target: 'esnext' }),
    webauthnPlugin(),
    consolePlugin(),
    windowsPlugin(),
    {
      name: 'origins',
      serve(context) {
        if (context.path === '/__origins.json') return { body: JSON.stringify(origins), type: 'application/json' };
      },
    },
  ],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter()],
};
