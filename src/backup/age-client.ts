// The popup's side of the age worker (src/backup/age-worker.ts): one worker per popup, started on
// first use, ended with the popup, and ended at once when the person stops the job under way
// (Cancel, Lock now): its job rejects with Abandoned and the next job starts a fresh worker. Where
// workers can't start, the work runs here instead.
import type { AgeAnswer, AgeJob } from './age-worker.ts';
import { encryptBackup } from './age.ts';
import { BackupError, type ReadFile } from './format.ts';
import { readBackupFile, readDotenvFile } from './read.ts';

type Job = AgeJob extends infer J ? (J extends AgeJob ? Omit<J, 'id'> : never) : never;

/** A job the person stopped: nothing came of it, and there is nothing to say about it. */
export class Abandoned extends Error {
  constructor() {
    super('abandoned');
    this.name = 'Abandoned';
  }
}

/** The worker's URL: beside the TypeScript in development, beside the bundle in dist/. */
const workerUrl = () => (import.meta.url.endsWith('.ts') ? new URL('./age-worker.ts', import.meta.url) : new URL('./age-worker.js', import.meta.url));

interface Waiting {
  resolve: (answer: AgeAnswer) => void;
  reject: (error: Error) => void;
}

export class AgeClient {
  private worker?: Worker;
  private next = 1;
  private abandons = 0;
  private readonly waiting = new Map<number, Waiting>();

  encrypt(json: string, passphrase: string, workFactor: number): Promise<string> {
    return this.run({ op: 'encrypt', json, passphrase, workFactor }) as Promise<string>;
  }

  /** An age backup decrypted with its passphrase and checked, record by record. */
  readBackup(file: Blob, passphrase: string): Promise<ReadFile> {
    return this.run({ op: 'backup', file, passphrase }) as Promise<ReadFile>;
  }

  /** A `.env` file read and checked, line by line. */
  readDotenv(file: Blob): Promise<ReadFile> {
    return this.run({ op: 'dotenv', file }) as Promise<ReadFile>;
  }

  /**
   * A check for a task of several steps (say what happens, run a job, plan): it throws Abandoned
   * once `abandon` was called since the ticket was taken, so a task stopped between its steps
   * posts no job and hands on no result.
   */
  ticket(): () => void {
    const at = this.abandons;
    return () => {
      if (this.abandons !== at) throw new Abandoned();
    };
  }

  /** Whether jobs run in a worker (else on the caller's thread). */
  get offThread(): boolean {
    return this.start() !== null;
  }

  /** Whether a job is under way in the worker (one the person can stop). */
  get busy(): boolean {
    return this.waiting.size > 0;
  }

  /** Ends the worker and every job under way; each rejects with Abandoned. */
  abandon() {
    this.abandons++;
    this.worker?.terminate();
    this.worker = undefined;
    for (const { reject } of this.waiting.values()) reject(new Abandoned());
    this.waiting.clear();
  }

  close() {
    this.abandon();
  }

  private async run(job: Job): Promise<string | ReadFile> {
    const worker = this.start();
    if (!worker) {
      if (job.op === 'encrypt') return encryptBackup(job.json, job.passphrase, job.workFactor);
      return job.op === 'backup' ? readBackupFile(job.file, job.passphrase) : readDotenvFile(job.file);
    }
    const id = this.next++;
    const answer = await new Promise<AgeAnswer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...job, id } as AgeJob);
    });
    if ('text' in answer) return answer.text;
    if ('read' in answer) return answer.read;
    if (answer.plain) throw new BackupError(answer.error);
    throw new Error(`age worker: ${answer.error}`);
  }

  private start(): Worker | null {
    if (this.worker) return this.worker;
    try {
      const worker = new Worker(workerUrl(), { type: 'module' });
      worker.onmessage = ({ data }: MessageEvent<AgeAnswer>) => {
        this.waiting.get(data.id)?.resolve(data);
        this.waiting.delete(data.id);
      };
      worker.onerror = () => {
        for (const { resolve } of this.waiting.values()) resolve({ id: 0, error: 'the age worker failed', plain: false });
        this.waiting.clear();
      };
      this.worker = worker;
      return worker;
    } catch {
      return null;
    }
  }
}
