// Reading a chosen file into records (README, Backup and restore): a `.env` file, or an age file
// decrypted with its passphrase and checked. The age worker runs these, so the popup's thread never
// holds a file's decoding, decryption or checks; they run here in the popup only where no worker starts.
import { decryptAge, dotenvText, isAgeHead } from './age.ts';
import { readDotenv } from './dotenv.ts';
import { BackupError, type ReadFile, readBackup } from './format.ts';

/** A `.env` file's records, every line checked by the record rules. */
export async function readDotenvFile(file: Blob): Promise<ReadFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (isAgeHead(bytes)) throw new BackupError('That file is an age file: it needs its passphrase. Nothing was restored.');
  return readDotenv(dotenvText(bytes));
}

/** An age backup's records: decrypted with the passphrase, then the format and every record checked. */
export async function readBackupFile(file: Blob, passphrase: string): Promise<ReadFile> {
  return readBackup(await decryptAge(new Uint8Array(await file.arrayBuffer()), passphrase));
}
