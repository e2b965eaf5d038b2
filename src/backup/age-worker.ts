// A dedicated worker of the vault origin for a backup's heavy work (README, Backup and restore):
// age's scrypt takes seconds at age's work factor, and reading a file of up to 64 MiB (decoding,
// JSON, every record's checks) takes longer than the popup's thread may be held. The popup posts
// the chosen file itself (a Blob: nothing is copied on its thread). It answers `{ id, text }`,
// `{ id, read }` or `{ id, error }` (a BackupError's plain words); nothing is kept.
import { encryptBackup } from './age.ts';
import { BackupError, type ReadFile } from './format.ts';
import { readBackupFile, readDotenvFile } from './read.ts';

export type AgeJob =
  | { id: number; op: 'encrypt'; json: string; passphrase: string; workFactor: number }
  | { id: number; op: 'backup'; file: Blob; passphrase: string }
  | { id: number; op: 'dotenv'; file: Blob };
export type AgeAnswer = { id: number; text: string } | { id: number; read: ReadFile } | { id: number; error: string; plain: boolean };

const scope = globalThis as unknown as { onmessage: ((e: MessageEvent<AgeJob>) => void) | null; postMessage(m: AgeAnswer): void };
scope.onmessage = async ({ data }) => {
  try {
    if (data.op === 'encrypt') scope.postMessage({ id: data.id, text: await encryptBackup(data.json, data.passphrase, data.workFactor) });
    else if (data.op === 'backup') scope.postMessage({ id: data.id, read: await readBackupFile(data.file, data.passphrase) });
    else scope.postMessage({ id: data.id, read: await readDotenvFile(data.file) });
  } catch (error) {
    const plain = error instanceof BackupError;
    scope.postMessage({ id: data.id, error: plain ? (error as Error).message : ((error as Error)?.name ?? 'error'), plain });
  }
};
