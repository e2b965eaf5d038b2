// Writes docs/screenshots/demo.png, the README's picture of the demo: Settings › Secrets with a
// few secrets, an attested policy (one rule refused for a model host), a use, a removal and a
// waiting request. `node test/e2e/demo-screenshot.mjs`
import { fileURLToPath } from 'node:url';
import { startDemo } from './servers.mjs';

const out = fileURLToPath(new URL('../../docs/screenshots/demo.png', import.meta.url));
const demo = await startDemo();
try {
  const page = await (await demo.browser.newContext({ viewport: { width: 1280, height: 1240 }, deviceScaleFactor: 1 })).newPage();
  await page.goto(`${demo.demoOrigin}/`);
  await page.locator('demo-status [data-testid=locked]').getByText('unlocked').waitFor();
  await page.evaluate(async () => {
    const app = document.querySelector('demo-app');
    const { FNOX, SECRETS_POLICY, attest, trustedChoice } = await import('/demo/attest.ts');
    const value = () => `demo_${crypto.randomUUID().replaceAll('-', '')}`;
    const ph = {};
    for (const [name, kind] of [
      ['GITHUB_TOKEN', 'secret'],
      ['NPM_TOKEN', 'secret'],
      ['ANTHROPIC_API_KEY', 'secret'],
      ['OLD_DEPLOY_KEY', 'secret'],
    ]) {
      ph[name] = (await app.page.request('put', { name, value: value(), kind })).placeholder;
    }
    await app.page.request('remove', { name: 'OLD_DEPLOY_KEY' });
    const fnox = `[secrets]
GITHUB_TOKEN = { provider = "seven", value = "${ph.GITHUB_TOKEN}" }
NPM_TOKEN = { provider = "seven", value = "${ph.NPM_TOKEN}" }
ANTHROPIC_API_KEY = { provider = "seven", value = "${ph.ANTHROPIC_API_KEY}" }

[[proxy.rules]]
secret = "GITHUB_TOKEN"
domain = "api.github.com"
methods = ["GET", "POST"]
paths = ["/repos/**"]

[[proxy.rules]]
secret = "NPM_TOKEN"
domain = "registry.npmjs.org"
methods = ["PUT"]

[[proxy.rules]]
secret = "ANTHROPIC_API_KEY"
domain = "api.anthropic.com"
`;
    const policy = `[exec]
GITHUB_TOKEN = { argv = [["/usr/bin/gh", "release", "upload"]] }
NPM_TOKEN = true

[exits]
NPM_TOKEN = ["page", "device:my-laptop"]
`;
    await app.page.request('policy', { files: [await attest(trustedChoice(FNOX, fnox)), await attest(trustedChoice(SECRETS_POLICY, policy))] });
    const channel = new MessageChannel();
    await app.page.request(
      'forward',
      {
        head: { method: 'GET', url: 'https://api.github.com/repos/ai-ecoverse/slicc', headers: [['authorization', `Bearer ${ph.GITHUB_TOKEN}`]] },
        owner: { pid: 311, ppid: 1, uid: 1000, gid: 1000, tag: 'gh' },
        exit: 'page',
        rawTraits: { manualRedirects: true },
      },
      [channel.port2],
    );
    channel.port1.close();
    await app.page.request('sealed', {
      req: { op: 'request', kind: 'value', name: 'SENTRY_TOKEN', prompt: 'sentry-cli needs an auth token to upload source maps' },
      stamp: { pid: 512, ppid: 1, uid: 1000, gid: 1000, tag: 'sentry-cli' },
    });
    await app.refresh();
  });
  await page.locator('demo-secrets tr[data-secret=GITHUB_TOKEN] .badge.active').waitFor();
  await page.locator('demo-pending [data-request]').waitFor();
  await page.locator('demo-status [data-testid=availability]').getByText('waiting').waitFor();
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await demo.stop();
}
