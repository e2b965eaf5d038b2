// Bounded under hostile load (README, Limits): every hostile input class of bench/stress-core.ts
// against the real vault, with a heartbeat in this page (the embedder, whose main thread the
// same-site vault frame shares) and the same messages sent to a bare echo document on the vault's
// origin. What the vault adds to the longest block of any op stays under 50 ms, and the heap after
// a collection doesn't grow with a second pass of every class.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { CLASSES, openPorts, runClass } from '../../bench/stress-core.ts';
import { attest } from '../helpers/attest.ts';
import { origins } from '../helpers/origins.ts';
import { resetVault } from '../helpers/vault.ts';

const BOUND_MS = 50;
/** A class past its bound runs again, up to this many times in all, and counts its best run. */
const RUNS = 5;
const MiB = 2 ** 20;

const heap = () => executeServerCommand('window', { action: 'heap' }) as Promise<number>;

describe('under hostile load (Chromium only)', function () {
  // Eight classes of heavy requests, two to six times, on a machine other tests share.
  this.timeout(300_000);
  before(resetVault);

  it('holds the main thread under 50 ms per op more than an echo document does, in every class, and the heap stays flat', async () => {
    // Ports that keep no replies (the test helpers' clients keep every message, for canary checks).
    const vault = origins.vault;
    const ports = await openPorts(vault);
    const first = [];
    for (const c of CLASSES) first.push(await runClass(c, ports, attest));
    const after = await heap();
    // Concurrent wrong passphrases: each one tried was counted (the guessing documents check it).
    expect(first.find((r) => r.name.startsWith('concurrent wrong passphrases'))?.errors).to.deep.equal([]);
    // A class runs again when it passed the bound, up to RUNS times, and counts its best run: a
    // pause of the shared machine's own (another browser, GC, the OS) isn't the vault's, while a
    // block of the vault's shows in every run.
    const worst: { name: string; excessMs: number }[] = [];
    for (const c of CLASSES) {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < RUNS && best >= BOUND_MS; run++) best = Math.min(best, (await runClass(c, ports, attest)).worstExcessMs);
      worst.push({ name: c.name, excessMs: Math.round(best) });
    }
    const again = await heap();
    expect(
      worst.filter((r) => r.excessMs >= BOUND_MS),
      JSON.stringify(worst),
    ).to.deep.equal([]);
    expect((again - after) / MiB).to.be.below(16, 'the heap grew with a second pass of every class');
  });
});
