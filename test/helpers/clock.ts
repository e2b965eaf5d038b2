// The tests' one clock (src/lock/autolock.ts `Clock`): time moves only when the test says, and the
// timers that come due fire on the way, each at its own moment.
import type { Clock } from '../../src/lock/index.ts';

/**
 * What a fired timer starts (an auto-lock's look at IndexedDB, a key dropped over a channel) has no
 * end a test can wait on when the point is that nothing happens: the clock lets it run this long.
 */
const AFTER_A_TIMER_MS = 50;

export class TestClock implements Clock {
  private timers = new Map<number, { at: number; run: () => void }>();
  private next = 1;

  constructor(public time = Date.UTC(2026, 11, 1)) {}

  now = () => this.time;

  setTimeout(run: () => void, ms: number) {
    const id = this.next++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  }

  clearTimeout(id: unknown) {
    this.timers.delete(id as number);
  }

  get pending() {
    return this.timers.size;
  }

  /** Moves time on by `ms`, firing each timer due on the way, at its own moment. */
  async advance(ms: number) {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
      await new Promise((resolve) => setTimeout(resolve, AFTER_A_TIMER_MS));
    }
    this.time = end;
  }
}
