// The popup's backups and restores (README, Backup and restore). It owns what they need: the
// database, its own hold on the key (a KeyRing, which the lock's ring in the same popup feeds over
// the key channel), the records and requests stores, and the vault's bus. Values and passphrases
// exist here only in memory, between the person's choice and the write or the download; the
// element renders names, counts and outcomes in plain words, never a value.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  BackupError,
  type PreviewItem,
  type RestorePlan,
  SCRYPT_WORK_FACTOR,
  backupFileName,
  backupJson,
  checkBackupPassphrase,
  checkFileSize,
  fileKind,
  planRestore,
  readBackup,
  readDotenv,
  type ReadFile,
} from '../src/backup/format.ts';
import { AgeClient } from '../src/backup/age-client.ts';
import { announce, CHANNEL } from '../src/store/bus.ts';
import type { BackupRequestKind } from '../src/contract.ts';
import { openVaultDb, type VaultDb } from '../src/store/schema.ts';
import { VaultError } from '../src/errors.ts';
import { decryptValue } from '../src/lock/slots.ts';
import { KeyRing } from '../src/lock/keyring.ts';
import { Records } from '../src/store/records.ts';
import { Requests, stateAt } from '../src/store/requests.ts';
import { loadSettings, originAllowed } from '../src/gateway/settings.ts';

export type BackupTask =
  /** A passphrase of at least 12 characters, twice. */
  | 'backup'
  /** Choose a file (picker or drop). */
  | 'restore'
  /** The chosen file is an age file: its passphrase. */
  | 'restore-passphrase'
  /** What restoring would do, by name. */
  | 'restore-preview';

/** The preview as the element shows it: names, kinds, what happens, never a value. */
export interface PreviewView {
  source: RestorePlan['source'];
  fileName: string;
  otherNamespace?: string;
  items: PreviewItem[];
  invalidLines: string[];
  added: number;
  replaced: number;
  skipped: number;
}

export interface BackupState {
  /** The backup screen shown, or null for the lock's own screens. */
  task: BackupTask | null;
  busy: boolean;
  /** What is happening while busy ("Encrypting…"), said in the status region. */
  working: string | null;
  outcome: { kind: 'success' | 'error'; text: string } | null;
  /** The page's pending requests of this namespace the popup can finish. */
  pending: BackupRequestKind[];
  /** False when the popup has no namespace it may serve: no backup or restore is offered. */
  available: boolean;
  preview: PreviewView | null;
  /** The chosen file's name, while its passphrase is asked. */
  fileName: string | null;
}

export interface BackupIntents {
  open(task: 'backup' | 'restore'): void;
  /** Leaves the backup screens; a page request being worked on is cancelled. */
  cancel(): Promise<void>;
  backUp(passphrase: string, again: string): Promise<void>;
  choose(file: File): Promise<void>;
  decrypt(passphrase: string): Promise<void>;
  confirm(): Promise<void>;
}

export type BackupModel = BackupIntents & { readonly state: BackupState };

export interface BackupOptions {
  /** age's scrypt work factor for new backups (tests lower it; the default is age's own, 18). */
  workFactor?: number;
  /** Hands the file to the browser: a download by default. */
  save?: (file: Blob, name: string) => void;
}

/** The browser's download of a file made in this document. */
export function download(file: Blob, name: string, doc: Document = document) {
  const url = URL.createObjectURL(file);
  const link = doc.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export class BackupController implements ReactiveController, BackupModel {
  state: BackupState = {
    task: null,
    busy: false,
    working: null,
    outcome: null,
    pending: [],
    available: false,
    preview: null,
    fileName: null,
  };
  private db?: VaultDb;
  private ring?: KeyRing;
  private bus?: BroadcastChannel;
  private records?: Records;
  private requests?: Requests;
  private readonly namespace: string | null;
  /** Requests the popup already opened its screen for, so cancelling one doesn't reopen it. */
  private readonly shown = new Set<string>();
  /** Held only between choosing a file and confirming or leaving. */
  private file: Uint8Array | null = null;
  private plan: RestorePlan | null = null;
  private closed = false;
  private readonly age = new AgeClient();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly win: Window = window,
    private readonly options: BackupOptions = {},
  ) {
    this.namespace = new URLSearchParams(win.location.search).get('namespace');
    host.addController(this);
  }

  hostConnected() {
    this.closed = false;
    void this.start();
  }

  hostDisconnected() {
    this.closed = true;
    this.forget();
    this.age.close();
    this.ring?.close();
    this.bus?.close();
    this.db?.close();
    this.ring = this.bus = this.db = undefined;
  }

  /** True while a backup screen is open: the lock's popup stays open after an unlock then. */
  get active(): boolean {
    return this.state.task !== null || this.state.pending.length > 0;
  }

  open(task: 'backup' | 'restore') {
    this.forget();
    this.set({ task, outcome: null, preview: null, fileName: null });
  }

  async cancel() {
    const task = this.state.task;
    this.forget();
    this.set({ task: null, preview: null, fileName: null, outcome: null });
    if (task) await this.endRequest(task === 'backup' ? 'backup' : 'restore', 'cancelled');
  }

  backUp(passphrase: string, again: string) {
    return this.act(async () => {
      checkBackupPassphrase(passphrase, again);
      const { namespace, key, records } = this.ready();
      await this.say('Encrypting the backup… this takes a few seconds.');
      const all = await records.all(namespace);
      const withValues = await Promise.all(all.map(async (r) => ({ ...r, value: await decryptValue(key, r) })));
      const at = Date.now();
      const armored = await this.age.encrypt(backupJson(namespace, at, withValues), passphrase, this.options.workFactor ?? SCRYPT_WORK_FACTOR);
      const name = backupFileName(namespace, new Date(at));
      (this.options.save ?? download)(new Blob([armored], { type: 'application/octet-stream' }), name);
      const request = await this.pendingId('backup');
      await records.exported(namespace, all.length, request);
      announce(namespace, ['audit', 'status']);
      const count = `${all.length} record${all.length === 1 ? '' : 's'}`;
      this.set({
        task: null,
        outcome: { kind: 'success', text: `Backed up ${count} to ${name}. Keep the file and its passphrase apart: anyone with both can read every value.` },
      });
    });
  }

  choose(file: File) {
    return this.act(async () => {
      this.forget();
      checkFileSize(file.size);
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (fileKind(bytes) === 'age') {
        this.file = bytes;
        this.set({ task: 'restore-passphrase', fileName: file.name });
        return;
      }
      await this.preview(readDotenv(new TextDecoder().decode(bytes)), file.name);
    });
  }

  decrypt(passphrase: string) {
    return this.act(async () => {
      if (!this.file) throw new BackupError('Choose the backup file again.');
      await this.say('Decrypting the backup… this takes a few seconds.');
      const read = readBackup(await this.age.decrypt(this.file, passphrase));
      this.file = null;
      await this.preview(read, this.state.fileName ?? 'the backup');
    });
  }

  confirm() {
    return this.act(async () => {
      const plan = this.plan;
      if (!plan) throw new BackupError('Choose the file again.');
      const { namespace, key, records } = this.ready();
      await this.say('Restoring…');
      const request = await this.pendingId('restore');
      await records.import(
        namespace,
        key,
        plan.writes,
        { source: plan.source, count: plan.count, added: plan.added, replaced: plan.replaced, skipped: plan.skipped },
        request,
      );
      this.forget();
      announce(namespace, ['values', 'audit', 'status']);
      this.set({
        task: null,
        preview: null,
        fileName: null,
        outcome: { kind: 'success', text: `Restored: ${plan.added} added, ${plan.replaced} replaced, ${plan.skipped} skipped.` },
      });
    });
  }

  // ── Inside ─────────────────────────────────────────────────────────────────────────────

  private async start() {
    if (!this.namespace) return;
    try {
      const { embedders } = await loadSettings(this.win.location.origin);
      if (this.closed || !originAllowed(this.namespace, embedders)) return;
      this.db = await openVaultDb();
      this.records = new Records(this.db);
      this.requests = new Requests(this.db, 0, Date.now);
      this.ring = await KeyRing.open(this.db);
      this.ring.onChange(() => this.host.requestUpdate());
      this.bus = new BroadcastChannel(CHANNEL);
      this.bus.onmessage = () => void this.follow();
      if (this.closed) return this.hostDisconnected();
      this.set({ available: true });
      await this.follow();
    } catch (error) {
      console.error(`slicc-vault: backups could not start in the popup (${(error as Error)?.name ?? 'error'})`);
    }
  }

  /** Follows the page's pending requests, and opens the screen of a new one. */
  private async follow() {
    if (!this.requests || !this.namespace) return;
    const now = Date.now();
    const pending = (await this.requests.all(this.namespace)).filter(
      (r) => r.uid === undefined && (r.kind === 'backup' || r.kind === 'restore') && stateAt(r, now) === 'pending',
    );
    this.set({ pending: pending.map((r) => r.kind as BackupRequestKind) });
    const fresh = pending.find((r) => !this.shown.has(r.id));
    for (const r of pending) this.shown.add(r.id);
    if (fresh && this.state.task === null && !this.state.busy) this.open(fresh.kind as 'backup' | 'restore');
  }

  private async pendingId(kind: BackupRequestKind): Promise<string | undefined> {
    if (!this.requests || !this.namespace) return undefined;
    const now = Date.now();
    return (await this.requests.all(this.namespace)).find((r) => r.uid === undefined && r.kind === kind && stateAt(r, now) === 'pending')?.id;
  }

  private async endRequest(kind: BackupRequestKind, state: 'cancelled') {
    const id = await this.pendingId(kind);
    if (!id || !this.requests || !this.namespace) return;
    await this.requests.end(id, state);
    announce(this.namespace, ['status']);
    await this.follow();
  }

  private async preview(read: ReadFile, fileName: string) {
    const { namespace, key, records } = this.ready();
    const here = await records.all(namespace);
    const names = new Set(read.records.map((r) => r.name));
    const values = new Map<string, string>();
    for (const r of here) if (names.has(r.name)) values.set(r.name, await decryptValue(key, r));
    const taken = await records.placeholders();
    const plan = planRestore(read, { namespace, records: here, values, taken });
    this.plan = plan;
    this.set({
      task: 'restore-preview',
      fileName,
      preview: {
        source: plan.source,
        fileName,
        ...(plan.otherNamespace !== undefined && { otherNamespace: plan.otherNamespace }),
        items: plan.items,
        invalidLines: plan.invalidLines,
        added: plan.added,
        replaced: plan.replaced,
        skipped: plan.skipped,
      },
    });
  }

  private ready(): { namespace: string; key: CryptoKey; records: Records } {
    if (!this.records || !this.namespace) throw new BackupError("This popup wasn't opened for a SLICC page, so it can't back up or restore.");
    const key = this.ring?.key;
    if (!key) throw new BackupError('The vault is locked: unlock it first.');
    return { namespace: this.namespace, key, records: this.records };
  }

  /** Says what is happening and lets the popup draw it before heavy work (scrypt) holds the thread. */
  private async say(working: string) {
    this.set({ working });
    await this.host.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }

  private forget() {
    this.file = null;
    this.plan = null;
  }

  private async act(work: () => Promise<void>) {
    if (this.state.busy) return;
    this.set({ busy: true, outcome: null, working: null });
    try {
      await work();
    } catch (error) {
      let text: string;
      if (error instanceof BackupError) text = error.message;
      else if (error instanceof VaultError) text = `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}. Nothing was written.`;
      else {
        console.error(`slicc-vault: backup popup: ${(error as Error)?.name ?? 'error'}`);
        text = 'Something went wrong; nothing was written. Try again.';
      }
      this.set({ outcome: { kind: 'error', text } });
    } finally {
      this.set({ busy: false, working: null });
    }
  }

  private set(patch: Partial<BackupState>) {
    this.state = { ...this.state, ...patch };
    this.host.requestUpdate();
  }
}
