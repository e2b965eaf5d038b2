// A dedicated worker of the vault origin for age's scrypt (README, Backup and restore): deriving a
// backup's key takes seconds at age's work factor, so the popup stays responsive while it runs.
// It answers `{ id, text }` or `{ id, error }` (a BackupError's plain words); nothing is kept.
import { decryptAge, encryptBackup } from './age.ts';
import { BackupError } from './format.ts';

export type AgeJob =
  | { id: number; op: 'encrypt'; json: string; passphrase: string; workFactor: number }
  | { id: number; op: 'decrypt'; bytes: Uint8Array; passphrase: string };
export type AgeAnswer = { id: number; text: string } | { id: number; error: string; plain: boolean };

const scope = globalThis as unknown as { onmessage: ((e: MessageEvent<AgeJob>) => void) | null; postMessage(m: AgeAnswer): void };
scope.onmessage = async ({ data }) => {
  try {
    const text = data.op === 'encrypt' ? await encryptBackup(data.json, data.passphrase, data.workFactor) : await decryptAge(data.bytes, data.passphrase);
    scope.postMessage({ id: data.id, text });
  } catch (error) {
    const plain = error instanceof BackupError;
    scope.postMessage({ id: data.id, error: plain ? (error as Error).message : ((error as Error)?.name ?? 'error'), plain });
  }
};
