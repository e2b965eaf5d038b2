// A heartbeat in the test page: a message to itself, again and again, each noting how long it
// waited. `stop()` answers the longest wait, the one still going on included (work that held the
// thread from start to end lets no beat through), so a test sees whether some work held it.
export function heartbeat(): { stop(): number } {
  const heart = new MessageChannel();
  let finished = false;
  let last = performance.now();
  let longest = 0;
  heart.port2.onmessage = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (!finished) heart.port1.postMessage(null);
  };
  heart.port1.postMessage(null);
  return {
    stop() {
      finished = true;
      heart.port1.close();
      return Math.max(longest, performance.now() - last);
    },
  };
}

/** What a heartbeat saw during some work and beside its baseline, over windows of the same length. */
export interface Beside {
  /** The longest wait during the work, and during the baseline. */
  longest: number;
  baseline: number;
  /** How long the work took; the baseline's window is as long. */
  ms: number;
}

/**
 * The longest heartbeat wait during `work`, and beside `baseline` (the same payload echoed, or the
 * same path with a trivial payload), measured in the same run over a window as long as the work
 * took: whatever else holds this machine (other processes on its cores, a collection) holds both
 * windows alike, so `longest - baseline` is what the work itself adds. Past `bound`, the pair runs
 * again, up to `runs` times in all, and the best pair counts: a pause of the machine's own lands in
 * one window or the other, while a block of the work's shows in every run.
 */
export async function besideBaseline(
  work: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  { bound = 50, runs = 5 }: { bound?: number; runs?: number } = {},
): Promise<Beside> {
  let best: Beside | null = null;
  for (let run = 0; run < runs && (!best || best.longest - best.baseline >= bound); run++) {
    const pair = await onePair(work, baseline);
    if (!best || pair.longest - pair.baseline < best.longest - best.baseline) best = pair;
  }
  return best!;
}

async function onePair(work: () => Promise<unknown>, baseline: () => Promise<unknown>): Promise<Beside> {
  let heart = heartbeat();
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  const longest = heart.stop();
  heart = heartbeat();
  const from = performance.now();
  await baseline();
  // The rest of the window, the heart beating throughout: a window as long as the work's.
  const rest = ms - (performance.now() - from);
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  return { longest, baseline: heart.stop(), ms };
}
