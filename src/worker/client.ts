// A vault document's side of its worker (worker.ts): started on the first job, ended when the
// document's vault closes (a later job starts it again). Where a worker can't start or load, the
// job runs here instead, in one piece. A worker is supervised: one that stops answering (it closed
// itself, hung, or failed after it had loaded) is ended and its jobs run again on a new one, once;
// a job that gets no answer twice fails (EAGAIN), so no request waits forever.
import { VaultError } from '../errors.ts';
import { WORKER_JOB_MS, WORKER_TRIES } from '../limits.ts';
import { type ParsedFile, cachedParse, parsePolicyFile, rememberParse } from '../policy/index.ts';
import { type ScrubValue, type Scrubber, compileScrubber, scrubberOf } from '../scrub/index.ts';
import type { WorkerAnswer, WorkerJob } from './worker.ts';

type Job = WorkerJob extends infer J ? (J extends WorkerJob ? Omit<J, 'id'> : never) : never;

/** The worker's URL: beside the TypeScript in development, beside the bundle in dist/. */
const workerUrl = () => (import.meta.url.endsWith('.ts') ? new URL('./worker.ts', import.meta.url) : new URL('./worker.js', import.meta.url));

/** A job on its way: posted `tries` times, failing once it got no answer twice. */
interface Pending {
  job: Job;
  tries: number;
  timer?: ReturnType<typeof setTimeout>;
  resolve(answer: WorkerAnswer | null): void;
  reject(error: Error): void;
}

export const workerLost = () => new VaultError('EAGAIN', "the vault's worker stopped answering; try again");

export class VaultWorker {
  /** `null` once a worker failed to start or load: jobs then run in place. */
  private worker?: Worker | null;
  /** The current worker has answered a job: an error now is a failure, not a worker that can't load. */
  private loaded = false;
  private next = 1;
  private readonly waiting = new Map<number, Pending>();

  constructor(
    private readonly url: () => URL = workerUrl,
    private readonly timeoutMs = WORKER_JOB_MS,
  ) {}

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

  /** Ends the worker; jobs on their way run in place, and the next job starts a new worker. */
  close() {
    this.end();
    for (const p of this.drain()) p.resolve(null);
  }

  private run(job: Job): Promise<WorkerAnswer | null> {
    return new Promise((resolve, reject) => this.post({ job, tries: 0, resolve, reject }));
  }

  private post(p: Pending) {
    const worker = this.start();
    if (!worker) return p.resolve(null);
    const id = this.next++;
    p.tries++;
    p.timer = setTimeout(() => this.lost(), this.timeoutMs);
    this.waiting.set(id, p);
    worker.postMessage({ ...p.job, id } as WorkerJob);
  }

  /** The worker stopped answering: it is ended, and its jobs go to a new one, or fail. */
  private lost() {
    this.end();
    for (const p of this.drain()) {
      if (p.tries < WORKER_TRIES) this.post(p);
      else p.reject(workerLost());
    }
  }

  private end() {
    this.worker?.terminate();
    this.worker = undefined;
    this.loaded = false;
  }

  private drain(): Pending[] {
    const pending = [...this.waiting.values()];
    for (const p of pending) clearTimeout(p.timer);
    this.waiting.clear();
    return pending;
  }

  private start(): Worker | null {
    if (this.worker !== undefined) return this.worker;
    try {
      const worker = new Worker(this.url(), { type: 'module' });
      worker.onmessage = ({ data }: MessageEvent<WorkerAnswer>) => {
        if (worker !== this.worker) return;
        const p = this.waiting.get(data.id);
        if (!p) return;
        clearTimeout(p.timer);
        this.waiting.delete(data.id);
        this.loaded = true;
        p.resolve(data);
      };
      worker.onmessageerror = () => worker === this.worker && this.lost();
      worker.onerror = (event) => {
        event.preventDefault();
        if (worker !== this.worker) return;
        if (this.loaded) return this.lost();
        // A worker that can't load answers nothing: its jobs, and every later one, run in place.
        this.end();
        this.worker = null;
        for (const p of this.drain()) p.resolve(null);
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
