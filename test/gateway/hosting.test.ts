// The vault origin serves only the vault's own documents and assets, each with the production
// headers (README, Documents and hosting): no other page of the repository can run there and ask
// for the key.
import { expect } from '@open-wc/testing';
import { origins } from '../helpers/origins.ts';
import { addFrame } from '../helpers/vault.ts';

interface Answer {
  path: string;
  status: number;
  csp: string | null;
  corp: string | null;
}

async function probe(paths: string[]): Promise<Answer[]> {
  const frame = addFrame(`${origins.vault}/test/fixtures/probe.html`);
  await new Promise<void>((resolve) => {
    const ready = (e: MessageEvent) => {
      if (e.source === frame.contentWindow && e.data?.type === 'probe-ready') {
        removeEventListener('message', ready);
        resolve();
      }
    };
    addEventListener('message', ready);
  });
  return new Promise((resolve) => {
    const answered = (e: MessageEvent) => {
      if (e.source === frame.contentWindow && e.data?.type === 'probe') {
        removeEventListener('message', answered);
        resolve(e.data.answers);
      }
    };
    addEventListener('message', answered);
    frame.contentWindow!.postMessage({ type: 'probe', paths }, origins.vault);
  });
}

describe('the vault origin', () => {
  it('serves nothing of the repository but the vault: no README, test, script, demo, doc or other path', async () => {
    const refused = [
      '/README.md',
      '/test/lock/lock.test.ts',
      '/test/helpers/vault.ts',
      '/scripts/vault-server.mjs',
      '/demo/index.html',
      '/docs/lock.md',
      '/static/../README.md',
      '/bench/bench.ts',
      '/web-test-runner.config.mjs',
      '/src/../test/lock/lock.test.ts',
      '/node_modules/../README.md',
    ];
    for (const answer of await probe(refused)) expect(answer.status, answer.path).to.equal(404);
  });

  it('serves its documents with the production CSP, and its modules and packages with the shared headers', async () => {
    const answers = await probe([
      '/',
      '/index.html',
      '/button.html',
      '/popup.html',
      '/panel.html',
      '/config.json',
      '/embedders.json',
      '/lock.css',
      '/components/vault-frame.ts',
      '/src/lock/keyring.ts',
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.path).to.equal(200);
      expect(answer.corp, answer.path).to.equal('cross-origin');
    }
    for (const answer of answers.filter((a) => a.path.endsWith('.html') || a.path === '/')) {
      expect(answer.csp, answer.path).to.match(/^default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors /);
    }
  });
});
