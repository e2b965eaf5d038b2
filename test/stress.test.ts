// Bounded under hostile load (README, Limits): every hostile input class of bench/stress-core.ts
// against the real vault, with a heartbeat in this page (the embedder, whose main thread the
// same-site vault frame shares) and the same messages sent to a bare echo document on the vault's
// origin. What the vault adds to the longest block of any op stays under 50 ms, and the heap after
// a collection doesn't grow with a second pass of every class.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { CLASSES, type ClassResult, openPort, runClass } from '../bench/stress-core.ts';
import { attest } from './helpers/attest.ts';
import { origins } from './helpers/origins.ts';
import { resetVault } from './helpers/vault.ts';

const BOUND_MS = 50;
const MiB = 2 ** 20;

const heap = () => executeServerCommand('window', { action: 'heap' }) as Promise<number>;

describe('under hostile load (Chromium only)', function () {
  // Seven classes of heavy requests, twice, on a machine other tests share.
  this.timeout(180_000);
  before(resetVault);

  it('holds the main thread under 50 ms per op more than an echo document does, in every class, and the heap stays flat', async () => {
    // Ports that keep no replies (the test helpers' clients keep every message, for canary checks).
    const vault = origins.vault;
    const ports = { page: await openPort(vault, '/'), agent: await openPort(vault, '/', 'agent'), echo: await openPort(vault, '/bench/echo.html') };
    const first: ClassResult[] = [];
    for (const c of CLASSES) first.push(await runClass(c, ports, attest));
    const after = await heap();
    const second: ClassResult[] = [];
    for (const c of CLASSES) second.push(await runClass(c, ports, attest));
    const again = await heap();
    // The better of the two passes per class: a block of the shared machine's own (GC, another process) isn't the vault's.
    const worst = first.map((r, i) => ({ name: r.name, excessMs: Math.round(Math.min(r.worstExcessMs, second[i]!.worstExcessMs)) }));
    expect(worst.filter((r) => r.excessMs >= BOUND_MS)).to.deep.equal([]);
    expect((again - after) / MiB).to.be.below(16, 'the heap grew with a second pass of every class');
  });
});
