// A vault document's side of its worker (worker.ts): started on the first job, ended when the
// document's vault closes (a later job starts it again). Where a worker can't start or fails, the
// job runs here instead, in one piece.
import { type ParsedFile, cachedParse, parsePolicyFile, rememberParse } from '../policy/index.ts';
import { type ScrubValue, type Scrubber, compileScrubber, scrubberOf } from '../scrub/index.ts';
import type { WorkerAnswer, WorkerJob } from './worker.ts';

type Job = WorkerJob extends infer J ? (J extends WorkerJob ? Omit<J, 'id'> : never) : never;

/** The worker's URL: beside the TypeScript in development, beside the bundle in dist/. */
const workerUrl = () => (import.meta.url.endsWith('.ts') ? new URL('./worker.ts', import.meta.url) : new URL('./worker.js', import.meta.url));

class VaultWorker {
  /** `null` once a worker failed to start or load: jobs then run in place. */
  private worker?: Worker | null;
  private next = 1;
  private readonly waiting = new Map<number, (answer: WorkerAnswer | null) => void>();

  /** A scrubber for these values, its tables built off the main thread when a worker can. */
  async compile(values: ScrubValue[]): Promise<Scrubber> {
    const answer = await this.run({ op: 'compile', values });
    return answer && 'tables' in answer ? scrubberOf(answer.tables) : compileScrubber(values);
  }

  /** A policy file's parse off the main thread, or null when it has to run in place. */
  async parse(path: string, text: string): Promise<ParsedFile | null> {
    const answer = await this.run({ op: 'parse', path, text });
    return answer && 'parsed' in answer ? answer.parsed : null;
  }

  /** Ends the worker; the next job starts a new one. */
  close() {
    this.worker?.terminate();
    this.worker = undefined;
    this.settle();
  }

  private run(job: Job): Promise<WorkerAnswer | null> {
    const worker = this.start();
    if (!worker) return Promise.resolve(null);
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ ...job, id } as WorkerJob);
    });
  }

  private settle() {
    for (const resolve of this.waiting.values()) resolve(null);
    this.waiting.clear();
  }

  private start(): Worker | null {
    if (this.worker !== undefined) return this.worker;
    try {
      const worker = new Worker(workerUrl(), { type: 'module' });
      worker.onmessage = ({ data }: MessageEvent<WorkerAnswer>) => {
        this.waiting.get(data.id)?.(data);
        this.waiting.delete(data.id);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        // A worker that can't load answers nothing: its jobs, and every later one, run in place.
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

/** The document's worker. */
export const vaultWorker = new VaultWorker();

/**
 * A policy file's parse, once per SHA-256 (README, Limits), a miss parsed in the vault's worker: a
 * file of thousands of rules takes the parser longer than the main thread may be held. A later
 * `parsePolicyFile` of the same file is then a hit. What `checkAttestation` is handed.
 */
export async function parsePolicyFileOffThread(path: string, sha256: string, text: string): Promise<ParsedFile> {
  const hit = cachedParse(path, sha256);
  if (hit) return hit;
  const parsed = await vaultWorker.parse(path, text);
  return parsed ? rememberParse(path, sha256, parsed) : parsePolicyFile(path, sha256, text);
}
