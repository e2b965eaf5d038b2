// Bounded under hostile load (README, Limits): every hostile input class of bench/stress-core.ts
// against the real vault, with a heartbeat in this page (the embedder, whose main thread the
// same-site vault frame shares) and the same messages sent to a bare echo document on the vault's
// origin. What the vault adds to the longest block of any op stays under 50 ms, and the heap after
// a collection doesn't grow with a second pass of every class.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { CLASSES, openPort, runClass } from '../bench/stress-core.ts';
import { attest } from './helpers/attest.ts';
import { origins } from './helpers/origins.ts';
import { resetVault } from './helpers/vault.ts';

const BOUND_MS = 50;
/** A class past its bound runs again, up to this many times in all, and counts its best run. */
const RUNS = 5;
/**
 * The classes not yet under the bound (README, Limits), held to this instead so they can't grow
 * unnoticed: a `policy` with 4,096 rules and the views that list them (40 to 75 ms on an idle
 * 2-core machine), and 48 `put`s of 64 KiB run again while the first run's compile lands (72 ms
 * here, 1 ms in the bench's single pass).
 */
const NOT_YET: Record<string, number> = {
  'many rules and paths (4,096 rules, 256 paths each in one)': 150,
  'many large values (48 puts of 64 KiB)': 150,
};
const boundOf = (name: string) => NOT_YET[name] ?? BOUND_MS;
const MiB = 2 ** 20;

const heap = () => executeServerCommand('window', { action: 'heap' }) as Promise<number>;

describe('under hostile load (Chromium only)', function () {
  // Seven classes of heavy requests, two to six times, on a machine other tests share.
  this.timeout(300_000);
  before(resetVault);

  it('holds the main thread under 50 ms per op more than an echo document does, in every class, and the heap stays flat', async () => {
    // Ports that keep no replies (the test helpers' clients keep every message, for canary checks).
    const vault = origins.vault;
    const ports = { page: await openPort(vault, '/'), agent: await openPort(vault, '/', 'agent'), echo: await openPort(vault, '/bench/echo.html') };
    for (const c of CLASSES) await runClass(c, ports, attest);
    const after = await heap();
    // A class runs again when it passed the bound, up to RUNS times, and counts its best run: a
    // pause of the shared machine's own (another browser, GC, the OS) isn't the vault's, while a
    // block of the vault's shows in every run.
    const worst: { name: string; excessMs: number }[] = [];
    for (const c of CLASSES) {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < RUNS && best >= boundOf(c.name); run++) best = Math.min(best, (await runClass(c, ports, attest)).worstExcessMs);
      worst.push({ name: c.name, excessMs: Math.round(best) });
    }
    const again = await heap();
    expect(worst.filter((r) => r.excessMs >= boundOf(r.name))).to.deep.equal([]);
    expect((again - after) / MiB).to.be.below(16, 'the heap grew with a second pass of every class');
  });
});
