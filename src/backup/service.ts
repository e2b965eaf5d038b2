// Backups and restores as the popup runs them (README, Backup and restore): a backup of every
// record of the namespace, a chosen file read and checked into a restore plan, the plan written in
// one transaction, and the page's `backup` and `restore` requests followed and ended. The service
// holds no screen: the popup's controller adapts it. Values exist here only in memory, between the
// person's choice and the write or the download, and are dropped with the plan.
import type { BackupRequestKind } from '../contract.ts';
import { MIN_BACKUP_PASSPHRASE } from '../limits.ts';
import { newPassphraseProblem } from '../validate.ts';
import { type HeldKey, Records, Requests, type StoredRecord, type StoredRequest, type VaultDb, announce, decryptValue, stateAt } from '../store/index.ts';
import { SCRYPT_WORK_FACTOR, checkFileSize, isAgeHead } from './age.ts';
import { AgeClient } from './age-client.ts';
import { BackupError, type ReadFile, backupFileName, backupJson } from './format.ts';
import { type RestorePlan, planRestore } from './plan.ts';

/** What the service works with: the popup's namespace, its database, and its hold on the key (a KeyRing). */
export interface BackupWorld {
  namespace: string;
  db: VaultDb;
  keys: { readonly current: HeldKey | null };
}

export interface BackupOptions {
  /** age's scrypt work factor for new backups (tests lower it; the default is age's own, 18). */
  workFactor?: number;
  now?: () => number;
}

/** A finished backup: the armored file, its name, and how many records it holds. */
export interface MadeBackup {
  file: string;
  name: string;
  count: number;
  /** Records left out: their ciphertext doesn't open under the vault's key. */
  unreadable: number;
}

/**
 * Says what is happening before heavy work starts (the popup draws it), once the checks have passed.
 * `holds`: the work runs on this thread (no worker could start), so the browser needs a moment to draw first.
 */
export type Say = (working: string, holds?: boolean) => Promise<void>;
const quiet: Say = async () => undefined;

/** A chosen file read: an age file needs its passphrase first; anything else is planned at once. */
export type ChosenFile = { kind: 'age'; file: Blob } | { kind: 'plan'; plan: RestorePlan };

export class BackupService {
  private readonly records: Records;
  private readonly requests: Requests;
  private readonly age = new AgeClient();
  private readonly now: () => number;

  constructor(
    private readonly world: BackupWorld,
    private readonly options: BackupOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.records = new Records(world.db, this.now);
    this.requests = new Requests(world.db, 0, this.now);
  }

  get namespace(): string {
    return this.world.namespace;
  }

  /** Ends the age worker; a job on its way fails. */
  close() {
    this.age.close();
  }

  /** Whether a job the person can stop (encrypting, reading or decrypting a file) is under way. */
  get stoppable(): boolean {
    return this.age.busy;
  }

  /** Stops the job under way: its worker ends, its promise rejects with Abandoned, nothing is written. */
  stop() {
    this.age.abandon();
  }

  /** The page's pending `backup` and `restore` requests of this namespace, oldest first. */
  async pending(): Promise<StoredRequest[]> {
    const now = this.now();
    return (await this.requests.all(this.namespace)).filter(
      (r) => r.uid === undefined && (r.kind === 'backup' || r.kind === 'restore') && stateAt(r, now) === 'pending',
    );
  }

  /**
   * Every record of the namespace, removed ones included, in an age file encrypted to the
   * passphrase; then `exportedAt`, the audit entry and the end of the page's request in one
   * transaction, and a `status` event from every vault document.
   */
  async backUp(passphrase: string, again: string, say: Say = quiet): Promise<MadeBackup> {
    checkBackupPassphrase(passphrase, again);
    const key = this.key();
    const going = this.age.ticket();
    await say('Encrypting the backup… this takes a few seconds.', !this.age.offThread);
    const all = await this.records.all(this.namespace);
    const values = await opened(key, all);
    const withValues = all.filter((r) => values.has(r)).map((r) => ({ ...r, value: values.get(r)! }));
    const at = this.now();
    going();
    const file = await this.age.encrypt(backupJson(this.namespace, at, withValues), passphrase, this.options.workFactor ?? SCRYPT_WORK_FACTOR);
    going();
    const request = await this.pendingId('backup');
    await this.records.exported(this.namespace, withValues.length, request);
    announce(this.namespace, ['audit', 'status']);
    return { file, name: backupFileName(this.namespace, new Date(at)), count: withValues.length, unreadable: all.length - withValues.length };
  }

  /**
   * A chosen file: too big is refused before it is read; an age file (told by its first bytes)
   * waits for its passphrase; a `.env` file is read and checked in the worker, then planned.
   */
  async choose(file: Blob, say: Say = quiet): Promise<ChosenFile> {
    checkFileSize(file.size);
    if (isAgeHead(new Uint8Array(await file.slice(0, 64).arrayBuffer()))) return { kind: 'age', file };
    const going = this.age.ticket();
    await say('Reading the file…', !this.age.offThread);
    going();
    const read = await this.age.readDotenv(file);
    const plan = await this.plan(read);
    going();
    return { kind: 'plan', plan };
  }

  /** An age file decrypted with its passphrase and checked in the worker, as a plan. */
  async decrypt(file: Blob, passphrase: string, say: Say = quiet): Promise<RestorePlan> {
    const going = this.age.ticket();
    await say('Decrypting the backup… this takes a few seconds.', !this.age.offThread);
    going();
    const read = await this.age.readBackup(file, passphrase);
    const plan = await this.plan(read);
    // Stopped (Cancel, Lock now) while the plan was made: nothing of it reaches the screen.
    going();
    return plan;
  }

  /** Writes a plan in one transaction, ending the page's `restore` request; a `placeholders` event follows. */
  async confirm(plan: RestorePlan, say: Say = quiet): Promise<void> {
    const held = this.held();
    await say('Restoring…');
    const request = await this.pendingId('restore');
    const { source, count, added, replaced, broughtBack, skipped } = plan;
    const audit = { source, count, added, replaced, ...(broughtBack > 0 && { broughtBack }), skipped };
    await this.records.import(this.namespace, held, plan.writes, audit, request, plan.kept);
    announce(this.namespace, ['values', 'audit', 'status']);
  }

  /** Cancels the page's pending request of that kind, if there is one. */
  async cancel(kind: BackupRequestKind): Promise<void> {
    const id = await this.pendingId(kind);
    if (!id) return;
    await this.requests.end(id, 'cancelled');
    announce(this.namespace, ['status']);
  }

  /** What restoring a read file would do here. */
  private async plan(read: ReadFile): Promise<RestorePlan> {
    const key = this.key();
    const here = await this.records.all(this.namespace);
    const names = new Set(read.records.map((r) => r.name));
    // A record here that doesn't open has no value to compare: the file's replaces it.
    const values = new Map<string, string>();
    for (const [r, value] of await opened(
      key,
      here.filter((r) => names.has(r.name)),
    ))
      values.set(r.name, value);
    const taken = await this.records.placeholders();
    return planRestore(read, { namespace: this.namespace, records: here, values, taken });
  }

  private async pendingId(kind: BackupRequestKind): Promise<string | undefined> {
    return (await this.pending()).find((r) => r.kind === kind)?.id;
  }

  private key(): CryptoKey {
    return this.held().key;
  }

  private held(): HeldKey {
    const held = this.world.keys.current;
    if (!held) throw new BackupError('The vault is locked: unlock it first.');
    return held;
  }
}

/** Each record's value where its ciphertext opens under the key; one that doesn't breaks nothing else (README, Key store and lock). */
async function opened(key: CryptoKey, records: StoredRecord[]): Promise<Map<StoredRecord, string>> {
  const values = new Map<StoredRecord, string>();
  await Promise.all(
    records.map((r) =>
      decryptValue(key, r).then(
        (value) => values.set(r, value),
        () => {},
      ),
    ),
  );
  return values;
}

/**
 * A backup passphrase: long enough (a file anyone may copy and attack offline), and the same twice,
 * both counted as the file is encrypted to them: in NFC (`e` and a combining accent are one character).
 */
export function checkBackupPassphrase(passphrase: string, again: string): void {
  const problem = newPassphraseProblem(passphrase, again, MIN_BACKUP_PASSPHRASE);
  if (problem === 'short') throw new BackupError(`A backup passphrase needs at least ${MIN_BACKUP_PASSPHRASE} characters. Nothing was saved.`);
  if (problem === 'mismatch') throw new BackupError("The two passphrases aren't the same. Nothing was saved.");
}
