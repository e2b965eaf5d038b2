// The age file around a backup (README, Backup and restore): ASCII-armored, encrypted to a
// passphrase with age's scrypt recipient, written and read with `age-encryption`, so the standard
// `age` command reads it. Every failure is a BackupError in plain words.
import { Decrypter, Encrypter, armor } from 'age-encryption';
import { MAX_RESTORE_FILE_BYTES } from '../limits.ts';
import { BackupError } from './format.ts';

/** age's default scrypt work factor (log2 N), as `age -p` uses. */
export const SCRYPT_WORK_FACTOR = 18;
const ARMOR_HEADER = '-----BEGIN AGE ENCRYPTED FILE-----';
const AGE_MAGIC = 'age-encryption.org/v1\n';

/** The JSON encrypted with age to the passphrase (scrypt), ASCII-armored. */
export async function encryptBackup(json: string, passphrase: string, workFactor = SCRYPT_WORK_FACTOR): Promise<string> {
  const encrypter = new Encrypter();
  encrypter.setPassphrase(passphrase.normalize('NFC'));
  encrypter.setScryptWorkFactor(workFactor);
  return armor.encode(await encrypter.encrypt(json));
}

export type FileKind = 'age' | 'dotenv';

/** A chosen file no backup could be as large as is refused before it is read. */
export function checkFileSize(bytes: number): void {
  if (bytes > MAX_RESTORE_FILE_BYTES) {
    throw new BackupError(`That file is larger than ${MAX_RESTORE_FILE_BYTES / 1024 / 1024} MiB, more than any backup. Nothing was restored.`);
  }
}

/** Whether a file's first bytes (64 are enough) are an age file's, armored or binary. */
export function isAgeHead(head: Uint8Array): boolean {
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(head.subarray(0, 64))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return text.startsWith(ARMOR_HEADER) || text.startsWith(AGE_MAGIC);
}

/** What a chosen file is: an age file (armored or binary), or text read as a `.env` file. */
export function fileKind(bytes: Uint8Array): FileKind {
  checkFileSize(bytes.length);
  if (isAgeHead(bytes)) return 'age';
  dotenvText(bytes);
  return 'dotenv';
}

/** A file that isn't age as the text of a `.env` file: UTF-8 with at least one line that starts `NAME=`. */
export function dotenvText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BackupError('That file is neither an age backup nor a .env file. Nothing was restored.');
  }
  // Anchored at line starts, one name run then `=`: linear in the text.
  if (!/^[ \t]*(export[ \t]+)?[A-Za-z_][A-Za-z0-9_]*[ \t]*=/m.test(text)) {
    throw new BackupError('That file is neither an age backup nor a .env file. Nothing was restored.');
  }
  return text;
}

/**
 * Decrypts an age file with the passphrase. Every failure is a BackupError in plain words: not
 * age, cut short, altered, encrypted to a key rather than a passphrase, or the wrong passphrase.
 */
export async function decryptAge(bytes: Uint8Array, passphrase: string): Promise<string> {
  let binary: Uint8Array;
  const text = new TextDecoder()
    .decode(bytes.subarray(0, 64))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith(ARMOR_HEADER)) {
    try {
      binary = armor.decode(
        new TextDecoder('utf-8', { fatal: true })
          .decode(bytes)
          .replace(/^\uFEFF/, '')
          .trim() + '\n',
      );
    } catch {
      throw new BackupError('That backup is cut short or damaged: its armored text is incomplete. Nothing was restored.');
    }
  } else if (text.startsWith(AGE_MAGIC)) {
    binary = bytes;
  } else {
    throw new BackupError("That file isn't an age file. Nothing was restored.");
  }
  const header = headerLines(binary);
  if (header === null) throw new BackupError('That backup is cut short or damaged: its header is incomplete. Nothing was restored.');
  if (!header.some((line) => line.startsWith('-> scrypt '))) {
    throw new BackupError('That age file is encrypted to a key, not a passphrase; only passphrase backups restore here. Nothing was restored.');
  }
  const decrypter = new Decrypter();
  decrypter.addPassphrase(passphrase.normalize('NFC'));
  let plaintext: Uint8Array;
  try {
    plaintext = await decrypter.decrypt(binary);
  } catch (error) {
    const message = String((error as Error)?.message ?? '');
    if (/no identity matched|invalid header HMAC/.test(message)) {
      throw new BackupError('Wrong passphrase for that backup (or its header was altered). Nothing was restored.');
    }
    if (/work factor/.test(message)) {
      throw new BackupError("That backup's passphrase work factor is higher than age allows here. Nothing was restored.");
    }
    throw new BackupError('That backup was altered or cut short after it was made: it fails its integrity check. Nothing was restored.');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  } catch {
    throw new BackupError("That age file decrypted, but it isn't a slicc-vault backup (it isn't UTF-8 text). Nothing was restored.");
  }
}

/** The header's lines up to `---`, or null when the file ends before it. */
function headerLines(binary: Uint8Array): string[] | null {
  const limit = Math.min(binary.length, 64 * 1024);
  const text = new TextDecoder('latin1').decode(binary.subarray(0, limit));
  const end = text.indexOf('\n---');
  if (end < 0) return null;
  return text.slice(0, end).split('\n');
}
