// The frame's side of the scrub worker (src/scrub-worker.ts): one worker per document, started on
// the first compile. Where a worker can't start or fails, the tables are built here instead, in
// one piece (README, Limits says which figures that costs).
import type { CompileAnswer, CompileJob } from './scrub-worker.ts';
import { type ScrubValue, type Scrubber, compileScrubber, scrubberOf } from './scrubber.ts';

/** The worker's URL: beside the TypeScript in development, beside the bundle in dist/. */
const workerUrl = () => (import.meta.url.endsWith('.ts') ? new URL('./scrub-worker.ts', import.meta.url) : new URL('./scrub-worker.js', import.meta.url));

export class Compiler {
  private worker?: Worker | null;
  private next = 1;
  private readonly waiting = new Map<number, (answer: CompileAnswer | null) => void>();

  /** A scrubber for these values, its tables built off the main thread when a worker can. */
  async compile(values: ScrubValue[]): Promise<Scrubber> {
    const worker = this.start();
    if (!worker) return compileScrubber(values);
    const id = this.next++;
    const answer = await new Promise<CompileAnswer | null>((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ id, values } satisfies CompileJob);
    });
    if (answer && 'tables' in answer) return scrubberOf(answer.tables);
    // The worker failed (or was closed): build here, so scrubbing never waits on a broken worker.
    return compileScrubber(values);
  }

  close() {
    this.worker?.terminate();
    this.worker = null;
    this.settle();
  }

  private settle() {
    for (const resolve of this.waiting.values()) resolve(null);
    this.waiting.clear();
  }

  private start(): Worker | null {
    if (this.worker !== undefined) return this.worker;
    try {
      const worker = new Worker(workerUrl(), { type: 'module' });
      worker.onmessage = ({ data }: MessageEvent<CompileAnswer>) => {
        this.waiting.get(data.id)?.(data);
        this.waiting.delete(data.id);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        // A worker that can't load answers nothing: every compile from now on runs here.
        worker.terminate();
        this.worker = null;
        this.settle();
      };
      this.worker = worker;
    } catch {
      this.worker = null;
    }
    return this.worker;
  }
}
