// The popup's backups and restores (README, Backup and restore): an adapter of the backup service
// to the popup's lifecycle and screens. It keeps the screen, the outcome in plain words and, only
// between the person's choice and the write, the chosen file and its plan; the element renders
// names, counts and outcomes, never a value.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { Abandoned, BackupError, type BackupOptions, BackupService, type PreviewItem, type RestorePlan, checkBackupPassphrase } from '../src/backup/index.ts';
import type { BackupRequestKind } from '../src/contract.ts';
import { VaultError } from '../src/errors.ts';
import { originAllowed } from '../src/gateway/index.ts';
import type { PopupWorld } from './popup-world.ts';

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
  broughtBack: number;
  skipped: number;
}

export interface BackupState {
  /** The backup screen shown, or null for the lock's own screens. */
  task: BackupTask | null;
  busy: boolean;
  /** Busy with a job the person may stop (encrypting, reading or decrypting a file): Cancel and Lock now stay enabled. */
  stoppable: boolean;
  /** What is happening while busy ("Encrypting…"), said in the status region. */
  working: string | null;
  outcome: { kind: 'success' | 'error'; text: string } | null;
  /** The page's pending requests of this namespace the popup can finish. */
  pending: BackupRequestKind[];
  /** False when the popup has no namespace it may serve: no backup or restore is offered. */
  available: boolean;
  /**
   * The namespace (a site's origin) backups and restores are of, shown on every backup screen:
   * any page may open the popup for any allowed site (`?namespace=`), so the person must see which.
   */
  site: string | null;
  preview: PreviewView | null;
  /** The chosen file's name, while its passphrase is asked. */
  fileName: string | null;
}

export interface BackupIntents {
  open(task: 'backup' | 'restore'): void;
  /** Leaves the backup screens, stopping the job under way; a page request being worked on is cancelled. */
  cancel(): Promise<void>;
  backUp(passphrase: string, again: string): Promise<void>;
  choose(file: File): Promise<void>;
  decrypt(passphrase: string): Promise<void>;
  confirm(): Promise<void>;
}

export type BackupModel = BackupIntents & { readonly state: BackupState };

export interface BackupControllerOptions extends BackupOptions {
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

/** What a finished restore did, by the words of the preview, naming the file. */
function restoredText(plan: RestorePlan, fileName: string | null): string {
  const parts = [`${plan.added} new`, `${plan.replaced - plan.broughtBack} replaced`];
  if (plan.broughtBack) parts.push(`${plan.broughtBack} brought back`);
  const unchanged = plan.items.filter((i) => i.status === 'unchanged').length;
  const invalid = plan.items.filter((i) => i.status === 'invalid').length + plan.invalidLines.length;
  parts.push(`${unchanged} unchanged`);
  if (invalid) parts.push(`${invalid} invalid, not restored`);
  return `Restored from ${fileName ?? 'the file'}: ${parts.join(', ')}.`;
}

export class BackupController implements ReactiveController, BackupModel {
  state: BackupState = {
    task: null,
    busy: false,
    stoppable: false,
    working: null,
    outcome: null,
    pending: [],
    available: false,
    site: null,
    preview: null,
    fileName: null,
  };
  private service?: BackupService;
  /** Requests the popup already opened its screen for, so cancelling one doesn't reopen it. */
  private readonly shown = new Set<string>();
  /** Held only between choosing a file and confirming or leaving. */
  private file: Blob | null = null;
  private plan: RestorePlan | null = null;
  private release: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly world: PopupWorld,
    private readonly options: BackupControllerOptions = {},
  ) {
    host.addController(this);
  }

  hostConnected() {
    this.closed = false;
    void this.start();
  }

  hostDisconnected() {
    this.closed = true;
    this.forget();
    for (const undo of this.release.splice(0)) undo();
    this.service = undefined;
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
    // A job under way (scrypt, a file read) is abandoned: its worker ends and nothing comes of it.
    if (this.state.stoppable) this.service?.stop();
    this.forget();
    const text = task === 'backup' ? 'Nothing was backed up.' : task ? 'Nothing was restored.' : null;
    this.set({ task: null, preview: null, fileName: null, outcome: text ? { kind: 'success', text } : null });
    if (task && this.service) {
      await this.service.cancel(task === 'backup' ? 'backup' : 'restore');
      await this.follow();
    }
  }

  backUp(passphrase: string, again: string) {
    return this.act(true, async (service) => {
      checkBackupPassphrase(passphrase, again);
      const made = await service.backUp(passphrase, again, (working, holds) => this.say(working, holds));
      (this.options.save ?? download)(new Blob([made.file], { type: 'application/octet-stream' }), made.name);
      const count = `${made.count} record${made.count === 1 ? '' : 's'}`;
      const left =
        made.unreadable === 0
          ? ''
          : ` ${made.unreadable} record${made.unreadable === 1 ? " that doesn't" : "s that don't"} open under the vault's key ${made.unreadable === 1 ? 'is' : 'are'} not in it.`;
      this.set({
        task: null,
        outcome: {
          kind: 'success',
          text: `Backed up ${count} to ${made.name}.${left} Keep the file and its passphrase apart: anyone with both can read every value.`,
        },
      });
    });
  }

  choose(file: File) {
    return this.act(true, async (service) => {
      this.forget();
      const chosen = await service.choose(file, (working, holds) => this.say(working, holds));
      if (chosen.kind === 'age') {
        this.file = chosen.file;
        this.set({ task: 'restore-passphrase', fileName: file.name });
      } else this.preview(chosen.plan, file.name);
    });
  }

  decrypt(passphrase: string) {
    return this.act(true, async (service) => {
      if (!this.file) throw new BackupError('Choose the backup file again.');
      const plan = await service.decrypt(this.file, passphrase, (working, holds) => this.say(working, holds));
      this.file = null;
      this.preview(plan, this.state.fileName ?? 'the backup');
    });
  }

  confirm() {
    return this.act(false, async (service) => {
      const plan = this.plan;
      if (!plan) throw new BackupError('Choose the file again.');
      await service.confirm(plan, (working) => this.say(working));
      this.forget();
      this.set({
        task: null,
        preview: null,
        fileName: null,
        outcome: { kind: 'success', text: restoredText(plan, this.state.fileName) },
      });
    });
  }

  // ── Inside ─────────────────────────────────────────────────────────────────────────────

  private async start() {
    try {
      const { namespace, embedders, db, ring, bus } = await this.world.ready();
      if (this.closed || !namespace || !originAllowed(namespace, embedders)) return;
      const service = new BackupService({ namespace, db, keys: ring }, this.options);
      this.service = service;
      const onBus = () => void this.follow();
      bus.addEventListener('message', onBus);
      // Locked (here, or in any vault document): a job under way is abandoned and the chosen file and
      // plan are dropped, since the key they were read for is gone.
      const onKey = () => {
        if (!ring.key && (this.state.task !== null || this.state.busy)) {
          if (this.state.stoppable) service.stop();
          this.forget();
          this.set({ task: null, preview: null, fileName: null, outcome: null });
        }
        this.host.requestUpdate();
      };
      this.release.push(
        ring.onChange(onKey),
        () => bus.removeEventListener('message', onBus),
        () => service.close(),
      );
      this.set({ available: true, site: namespace });
      await this.follow();
    } catch (error) {
      console.error(`slicc-vault: backups could not start in the popup (${(error as Error)?.name ?? 'error'})`);
    }
  }

  /** Follows the page's pending requests, and opens the screen of a new one. */
  private async follow() {
    if (!this.service) return;
    const pending = await this.service.pending();
    this.set({ pending: pending.map((r) => r.kind as BackupRequestKind) });
    const fresh = pending.find((r) => !this.shown.has(r.id));
    for (const r of pending) this.shown.add(r.id);
    if (fresh && this.state.task === null && !this.state.busy) this.open(fresh.kind as 'backup' | 'restore');
  }

  private preview(plan: RestorePlan, fileName: string) {
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
        replaced: plan.replaced - plan.broughtBack,
        broughtBack: plan.broughtBack,
        skipped: plan.skipped,
      },
    });
  }

  /** Says what is happening and lets the popup draw it before heavy work (scrypt) holds the thread. */
  private async say(working: string, holds = true) {
    this.set({ working });
    await this.host.updateComplete;
    if (holds) await new Promise((resolve) => setTimeout(resolve, 30));
  }

  private forget() {
    this.file = null;
    this.plan = null;
  }

  /** Runs one of the person's intents, one at a time; `stoppable` work may be stopped by Cancel or Lock now. */
  private async act(stoppable: boolean, work: (service: BackupService) => Promise<void>) {
    if (this.state.busy) return;
    this.set({ busy: true, stoppable, outcome: null, working: null });
    try {
      if (!this.service) throw new BackupError("This popup wasn't opened for a SLICC page, so it can't back up or restore.");
      await work(this.service);
    } catch (error) {
      // Stopped by the person: whoever stopped it says what happened.
      if (error instanceof Abandoned) return;
      let text: string;
      if (error instanceof BackupError) text = error.message;
      else if (error instanceof VaultError) text = `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}. Nothing was written.`;
      else {
        console.error(`slicc-vault: backup popup: ${(error as Error)?.name ?? 'error'}`);
        text = 'Something went wrong; nothing was written. Try again.';
      }
      this.set({ outcome: { kind: 'error', text } });
    } finally {
      this.set({ busy: false, stoppable: false, working: null });
    }
  }

  private set(patch: Partial<BackupState>) {
    this.state = { ...this.state, ...patch };
    this.host.requestUpdate();
  }
}
