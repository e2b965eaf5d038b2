// The popup's side of the age worker (src/age-worker.ts): one worker per popup, started on first
// use and ended with the popup. Where workers can't start, the work runs here instead.
import type { AgeAnswer, AgeJob } from './age-worker.ts';
import { decryptAge, encryptBackup } from './age.ts';
import { BackupError } from './format.ts';

type Job = AgeJob extends infer J ? (J extends AgeJob ? Omit<J, 'id'> : never) : never;

/** The worker's URL: beside the TypeScript in development, beside the bundle in dist/. */
const workerUrl = () => (import.meta.url.endsWith('.ts') ? new URL('./age-worker.ts', import.meta.url) : new URL('./age-worker.js', import.meta.url));

export class AgeClient {
  private worker?: Worker;
  private next = 1;
  private readonly waiting = new Map<number, (answer: AgeAnswer) => void>();

  encrypt(json: string, passphrase: string, workFactor: number): Promise<string> {
    return this.run({ op: 'encrypt', json, passphrase, workFactor });
  }

  decrypt(bytes: Uint8Array, passphrase: string): Promise<string> {
    return this.run({ op: 'decrypt', bytes, passphrase });
  }

  close() {
    this.worker?.terminate();
    this.worker = undefined;
    for (const resolve of this.waiting.values()) resolve({ id: 0, error: 'the popup closed', plain: false });
    this.waiting.clear();
  }

  private async run(job: Job): Promise<string> {
    const worker = this.start();
    if (!worker) return job.op === 'encrypt' ? encryptBackup(job.json, job.passphrase, job.workFactor) : decryptAge(job.bytes, job.passphrase);
    const id = this.next++;
    const answer = await new Promise<AgeAnswer>((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ ...job, id } as AgeJob);
    });
    if ('text' in answer) return answer.text;
    if (answer.plain) throw new BackupError(answer.error);
    throw new Error(`age worker: ${answer.error}`);
  }

  private start(): Worker | null {
    if (this.worker) return this.worker;
    try {
      const worker = new Worker(workerUrl(), { type: 'module' });
      worker.onmessage = ({ data }: MessageEvent<AgeAnswer>) => {
        this.waiting.get(data.id)?.(data);
        this.waiting.delete(data.id);
      };
      worker.onerror = () => {
        for (const resolve of this.waiting.values()) resolve({ id: 0, error: 'the age worker failed', plain: false });
        this.waiting.clear();
      };
      this.worker = worker;
      return worker;
    } catch {
      return null;
    }
  }
}
