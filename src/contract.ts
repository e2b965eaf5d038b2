/**
 * The vault's contract: every message shape that crosses a port, a BroadcastChannel or the
 * button's postMessage, and the views the vault hands out. Everything that sends or reads a
 * message imports its type from here; `npm pack` ships this module's declarations only.
 */

export type Protocol = 1;
export type EpochMs = number;
export type Role = 'page' | 'agent';

export type ErrorCode = 'EINVAL' | 'ENOENT' | 'EEXIST' | 'EACCES' | 'EAGAIN' | 'ENOTSUP';
export interface ErrorBody {
  code: ErrorCode;
  message: string;
}

// ── Records ─────────────────────────────────────────────────────────────────────────────

export type RecordKind = 'secret' | 'grant' | 'model' | 'mcp';
export type RecordState = 'active' | 'inert' | 'removed';
/**
 * A record's state as Settings lists it: also `unreadable` when its ciphertext doesn't open under
 * the vault's key (README, Key store and lock); the scrubber and the injector skip it.
 */
export type ListedState = RecordState | 'unreadable';
export type Source = 'settings' | 'process' | `jerk:${string}@${string}` | `oauth:${string}` | `import:${string}`;
export type ExitName = 'page' | 'proxy' | 'tailscale' | `device:${string}`;
/** `false`: never revealed to a program; otherwise the `[exec]` mode of secrets-policy.toml. */
export type ExecMode = false | 'any' | 'argv' | 'shell';

/** A rule of `/etc/fnox/config.toml`'s `[[proxy.rules]]`, normalised. */
export interface Rule {
  domain: string;
  header: string;
  methods: string[];
  paths: string[];
}

/** One record as Settings › Secrets shows it. Never holds the value. */
export interface SecretView {
  name: string;
  kind: RecordKind;
  source: Source;
  placeholder: string;
  state: ListedState;
  provider?: string;
  account?: string;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  usedAt?: EpochMs;
  removedAt?: EpochMs;
  expiresAt?: EpochMs;
  exec: ExecMode;
  execArgv?: string[][];
  rules: Rule[];
  exits?: ExitName[];
  /** Why a `model` or `mcp` record is filled in nowhere (its `provider` binds it to nothing). */
  warning?: string;
}

/** A rule the vault dropped because it names a model or MCP endpoint. */
export interface RefusedRule {
  secret: string;
  rule: Rule;
  reason: string;
}

// ── Status ──────────────────────────────────────────────────────────────────────────────

export interface ScrubState {
  needed: boolean;
  version: number;
  ready: boolean;
}

/** The idle times auto-lock offers (README, Key store and lock): 15 minutes, 1 hour, 4 hours. */
export const AUTO_LOCK_CHOICES = [15 * 60 * 1000, 60 * 60 * 1000, 4 * 60 * 60 * 1000] as const;
export type AutoLockMs = (typeof AUTO_LOCK_CHOICES)[number];

/** The lock kinds set, or `null` when the vault auto-unlocks. */
export interface LockKinds {
  passphrase: boolean;
  passkey: boolean;
  /** Auto-lock: the key is dropped everywhere after this long without use; `null` is never. */
  autoLockMs: AutoLockMs | null;
}
export type LockState = LockKinds | null;

/**
 * `value`, `oauth` and `jerk-seal` come from /dev/sealed (`oauth` from the agent's `grant` too),
 * `backup` and `restore` from the page's `export` and `import`, `refresh` from the agent's `refresh`
 * (or a `forward` of an expired sign-in's value).
 */
export type PendingKind = 'value' | 'oauth' | 'jerk-seal' | 'refresh' | BackupRequestKind;
/** The page's requests for the person to back up (`export`) or restore (`import`) in the popup. */
export type BackupRequestKind = 'backup' | 'restore';
export interface PendingRequest {
  id: string;
  kind: PendingKind;
  name?: string;
  provider?: string;
  /** Untrusted, agent-written text of at most 200 characters. */
  prompt?: string;
  /** The kernel caller of a /dev/sealed request; absent on the page's and the agent's requests. */
  uid?: number;
  tag?: string;
  /** The agent asked (`grant`, `refresh`). */
  agent?: true;
  /** A sign-in the agent asked for: the scopes and the account it wants, untrusted text. */
  scopes?: string[];
  account?: string;
  createdAt: EpochMs;
  expiresAt: EpochMs;
}

export interface VaultStatus {
  version: string;
  protocol: Protocol;
  origin: string;
  locked: boolean;
  lock: LockState;
  /** True when records exist but no key slot is left to open them: the vault never writes then. */
  keyLost: boolean;
  scrub: ScrubState;
  waiting: PendingRequest[];
  exportedAt: EpochMs | null;
  backupReminder: BackupReminder;
  policy: PolicyFileState[];
}
export type BackupReminder = 'due' | 'dismissed' | null;
export type Availability = 'connecting' | 'waiting' | 'locked' | 'ready';

// ── Audit ───────────────────────────────────────────────────────────────────────────────

export interface AuditBase {
  seq: number;
  at: EpochMs;
  name: string;
  uid?: number;
  tag?: string;
}
export interface ForwardEntry extends AuditBase {
  type: 'forward';
  domain: string;
  method: string;
  path: string;
  rule: Rule;
  exit: ExitName;
}
export interface McpEntry extends AuditBase {
  type: 'mcp';
  server: string;
  domain: string;
  method: string;
  path: string;
  exit: ExitName;
}
/**
 * A value revealed to a program through the kernel's exec, or refused (README, Exec): one entry per
 * variable of the call. `name` is the record's (the variable's when no record of this namespace
 * holds its placeholder); `argv` at most 16 elements of 256 characters, scrubbed.
 */
export interface RevealEntry extends AuditBase {
  type: 'materialize';
  variable: string;
  exec: ExecMode;
  kind: ExecKind;
  argv: string[];
  argvCut?: true;
  /** Why nothing was revealed; absent when the value was. */
  refused?: string;
}
/**
 * The agent's model requests through `forward` (README, Model and MCP endpoints): at most one entry
 * per record a minute, later calls in that minute counted in it.
 */
export interface ModelEntry extends AuditBase {
  type: 'model';
  provider: string;
  domain: string;
  path: string;
  exit: ExitName;
  count: number;
}
export interface SealEntry extends AuditBase {
  type: 'seal';
  kind: RecordKind;
  source: Source;
  rotated: boolean;
}
export interface RemoveEntry extends AuditBase {
  /** `unreadable`: a record whose ciphertext doesn't open under the vault's key, found once. */
  type: 'remove' | 'restore' | 'purge' | 'unreadable';
}
export type PolicyChange =
  | { what: 'rule'; change: 'added' | 'removed'; secret: string; rule: Rule }
  | { what: 'exec'; secret: string; from: ExecMode; to: ExecMode }
  | { what: 'exits'; secret: string; from: ExitName[] | null; to: ExitName[] | null }
  | { what: 'limits'; limit: string; from: number; to: number };
export interface PolicyEntry {
  seq: number;
  at: EpochMs;
  type: 'policy';
  path: string;
  sha256: string;
  accepted: boolean;
  /** The first 100 changes; `changesMore` counts the others (README, Limits). */
  changes: PolicyChange[];
  changesMore?: number;
  warning?: string;
}
/** A backup made in the popup: `count` records, removed ones included (README, Backup and restore). */
export interface ExportEntry {
  seq: number;
  at: EpochMs;
  type: 'export';
  count: number;
}
/** A restore confirmed in the popup: `count` records in the file; `skipped` were unchanged or invalid. */
export interface ImportEntry {
  seq: number;
  at: EpochMs;
  type: 'import';
  source: ImportSource;
  count: number;
  added: number;
  replaced: number;
  /** Of `replaced`, the records brought back from removed (only when there were some). */
  broughtBack?: number;
  skipped: number;
}
export type ImportSource = 'import:slicc-vault' | 'import:dotenv';
/** An agent's `endpoints` call that registered something new, or the page's `unregister`: what changed. */
export interface EndpointsEntry {
  seq: number;
  at: EpochMs;
  type: 'endpoints';
  change: 'added' | 'removed';
  model: string[];
  mcp: McpServerEntry[];
}
export type AuditEntry =
  | ForwardEntry
  | McpEntry
  | ModelEntry
  | RevealEntry
  | SealEntry
  | RemoveEntry
  | PolicyEntry
  | ExportEntry
  | ImportEntry
  | EndpointsEntry;

export interface AuditPage {
  audit: AuditEntry[];
  more: boolean;
  next?: number;
}

export interface ExitPolicyView {
  secrets: {
    name: string;
    exits: ExitName[];
  }[];
}

export interface VaultList {
  secrets: SecretView[];
  refused: RefusedRule[];
  audit: AuditEntry[];
  auditMore: boolean;
  exits: ExitPolicyView;
  /** The model base URLs and MCP servers the agent registered, for the page to review (`unregister`). */
  registered: RegisteredEndpoints;
}
export interface RegisteredEndpoints {
  model: string[];
  mcp: McpServerEntry[];
}

// ── Policy ──────────────────────────────────────────────────────────────────────────────

export interface Attestation {
  path: string;
  bytes: Uint8Array;
  uid: number;
  gid: number;
  mode: number;
  ino: number;
  mtimeMs: EpochMs;
  sha256: string;
  users: string;
  onRootFs: boolean;
  parents: {
    path: string;
    uid: number;
    gid: number;
    mode: number;
  }[];
}
export interface PolicyFileState {
  path: string;
  sha256: string | null;
  accepted: boolean;
  warnings: string[];
}
export interface PolicyResult {
  accepted: boolean;
  files: PolicyFileState[];
  rules: (Rule & { secret: string })[];
  warnings: string[];
}

// ── Forward ─────────────────────────────────────────────────────────────────────────────

export interface Stamp {
  pid: number;
  ppid: number;
  uid: number;
  gid: number;
  tag: string;
  /** The exec the kernel performs, filled in by the kernel (README, Exec); only `materialize` reads it. */
  exec?: KernelExec;
}
/** `exec`: the kernel runs a program; `shell`: it starts a shell session whose environment keeps the values. */
export type ExecKind = 'exec' | 'shell';
/** The kernel's exec: `argv[0]` the absolute path of the program it resolved. */
export interface KernelExec {
  kind: ExecKind;
  argv: string[];
}
export interface RequestHead {
  method: string;
  url: string;
  headers: [string, string][];
}
export interface RawTraits {
  manualRedirects?: boolean;
  encodedBodies?: boolean;
}
export type ForwardResult = { head: RequestHead; body?: Uint8Array } | { refused: { status: number; reason: string } };
export type ResponsePart =
  | {
      op: 'response';
      status: number;
      statusText: string;
      url: string;
      redirected?: boolean;
      headers: [string, string][];
    }
  | { op: 'body'; chunk: Uint8Array }
  | { op: 'end' }
  | { op: 'error'; message: string };

export interface McpServerEntry {
  server: string;
  url: string;
  names?: string[];
}
export interface ScrubHit {
  name: string;
  form: string;
  count: number;
}

// ── /dev/sealed ─────────────────────────────────────────────────────────────────────────

export type SealedRequest =
  | { op: 'seal'; name: string; value: string }
  | { op: 'placeholder'; name: string }
  | { op: 'list' }
  | { op: 'test'; name: string; url: string; method?: string; header?: string; exit?: ExitName }
  | { op: 'request'; kind: 'value'; name: string; prompt?: string }
  | { op: 'request'; kind: 'oauth'; provider: string; oauth: Record<string, unknown> }
  | { op: 'request'; kind: 'jerk-seal'; provider: string }
  | { op: 'status'; id?: string }
  | { op: 'cancel'; id: string }
  /** The kernel, performing an exec: the child's variables that name placeholders. */
  | { op: 'materialize'; env: Record<string, string> };

export type RequestStateName = 'pending' | 'done' | 'cancelled' | 'expired';
export interface RequestStatus {
  id: string;
  kind: PendingKind;
  name?: string;
  provider?: string;
  state: RequestStateName;
  createdAt: EpochMs;
  expiresAt: EpochMs;
  placeholder?: string;
}
export interface SealedSecret {
  name: string;
  placeholder: string;
  state: ListedState;
  exec: ExecMode;
  rules: Rule[];
  expiresAt?: EpochMs;
}
/** What the kernel hands the reading process: the op's result, or an error. */
export type SealedReply =
  | { placeholder: string; state: RecordState }
  | { secrets: SealedSecret[] }
  | { verdict: 'inject' | 'refuse'; reason: string }
  | { state: 'pending'; id: string }
  | RequestStatus
  | { requests: RequestStatus[] }
  | { state: 'cancelled' }
  /** `materialize`: the only reply of /dev/sealed that carries values, for the child's environment (README, Exec). */
  | { env: Record<string, string>; revealed: string[] }
  | { error: ErrorBody };

// ── Page ops ────────────────────────────────────────────────────────────────────────────

export interface PutFields {
  name: string;
  value: string;
  kind?: RecordKind;
  provider?: string;
  account?: string;
  expiresAt?: EpochMs;
  /** The id of a pending value request this `put` answers. */
  request?: string;
}
export interface SealFields {
  name: string;
  value: string;
  source: `oauth:${string}` | `jerk:${string}@${string}`;
  kind: RecordKind;
  provider?: string;
  account?: string;
  expiresAt?: EpochMs;
}

export type Op =
  | { op: 'sealed'; req: SealedRequest | string; stamp: Stamp }
  | { op: 'status' }
  | { op: 'placeholders' }
  | { op: 'list' }
  | { op: 'audit'; before?: number; limit?: number }
  | ({ op: 'put' } & PutFields)
  | ({ op: 'seal' } & SealFields)
  | { op: 'remove'; name: string }
  | { op: 'restore'; name: string }
  | { op: 'cancel'; request: string }
  | { op: 'lock' }
  | { op: 'dismissBackupReminder' }
  /** Removes registrations: model base URLs, and MCP servers by their URL. */
  | { op: 'unregister'; model?: string[]; mcp?: string[] }
  | { op: 'export' }
  | { op: 'import' }
  | { op: 'policy'; files: Attestation[] }
  | {
      op: 'forward';
      head: RequestHead;
      body?: Uint8Array | string;
      owner: Stamp;
      exit: ExitName;
      rawTraits: RawTraits;
    };

export type AgentOp =
  | { op: 'redact'; texts: (string | Uint8Array)[] }
  | { op: 'redactStream'; stream: string }
  | { op: 'push'; stream: string; chunk: Uint8Array }
  | { op: 'idle'; stream: string }
  | { op: 'end'; stream: string }
  | { op: 'drop'; stream: string }
  | { op: 'endpoints'; model?: string[]; mcp?: (string | McpServerEntry)[] }
  | { op: 'records' }
  | { op: 'model'; provider: string }
  | { op: 'mcp'; server: string }
  /** A sign-in for the person to make, or (with `request`) the state of one asked for. */
  | { op: 'grant'; provider: string; scopes?: string[]; account?: string }
  | { op: 'grant'; request: string }
  /** A sign-in's value renewed by the page, or (with `request`) the state of one asked for. */
  | { op: 'refresh'; name: string }
  | { op: 'refresh'; request: string };

/** A record as the agent sees it (`records`): never a value. */
export interface AgentRecord {
  name: string;
  kind: RecordKind;
  provider?: string;
  account?: string;
  placeholder: string;
  state: RecordState;
  expiresAt?: EpochMs;
}
/** A request the agent asked for, as it reads it back: `done` with the value's name and placeholder. */
export interface AgentRequestState {
  request: string;
  state: RequestStateName;
  name?: string;
  placeholder?: string;
}

export type AgentReply =
  | { op: 'redact'; texts: (string | Uint8Array)[]; hits: ScrubHit[]; version: number }
  | { op: 'redactStream'; stream: string; idleMs: number; version: number }
  | { op: 'push' | 'idle'; chunk: Uint8Array }
  | { op: 'end'; chunk: Uint8Array; hits: ScrubHit[] }
  | { op: 'drop' }
  | { op: 'endpoints'; ok: true }
  | { op: 'records'; records: AgentRecord[] }
  | { op: 'model'; name: string; placeholder: string; provider: string; baseUrls: string[] }
  | { op: 'mcp'; server: string; url: string; credentials: { name: string; placeholder: string }[] }
  | ({ op: 'grant' | 'refresh' } & ({ request: string } | AgentRequestState))
  | { op: 'refresh'; state: 'fresh'; expiresAt?: EpochMs };

export interface PlaceholdersView {
  placeholders: string[];
  scrub: ScrubState;
}

export type OpReply =
  | { op: 'sealed'; reply: SealedReply }
  | { op: 'status'; status: VaultStatus }
  | ({ op: 'placeholders' } & PlaceholdersView)
  | { op: 'list'; list: VaultList }
  | ({ op: 'audit' } & AuditPage)
  | { op: 'put'; placeholder: string; state: RecordState }
  | { op: 'seal'; placeholder: string; state: RecordState }
  | { op: 'remove'; state: 'removed' }
  | { op: 'restore'; state: RecordState }
  | { op: 'cancel'; state: RequestStateName }
  | { op: 'lock' }
  | { op: 'dismissBackupReminder'; backupReminder: BackupReminder }
  | { op: 'unregister'; registered: RegisteredEndpoints }
  /** The pending `backup` (`restore`) request's id: the person finishes or cancels it in the popup. */
  | { op: 'export' | 'import'; request: string }
  | ({ op: 'policy' } & PolicyResult)
  | ({ op: 'forward' } & ForwardResult);

export type Request = Op & { v: Protocol; id: number };
export type AgentRequest = AgentOp & { v: Protocol; id: number };
export type Reply = OpReply & { v: Protocol; id: number };
export type AgentReplyMessage = AgentReply & { v: Protocol; id: number };
export interface ErrorReply {
  v: Protocol;
  id: number | null;
  op?: undefined;
  error: ErrorBody;
}

// ── Handshake and events ────────────────────────────────────────────────────────────────

/** Posted by the embedder to the frame's window, with `port2` of a MessageChannel. */
export interface Hello {
  type: 'slicc-vault';
  v: number;
  op: 'hello';
  role?: Role;
}
export interface Welcome {
  v: Protocol;
  op: 'welcome';
  role: Role;
  status: VaultStatus;
}
export interface Refused {
  v: Protocol;
  op: 'refused';
  error: ErrorBody;
}

/** Pushed on page ports (never agent ports); events carry no `id`. */
export type VaultEvent =
  | ({ v: Protocol; op: 'placeholders' } & PlaceholdersView)
  | { v: Protocol; op: 'changed'; secrets: SecretView[]; exits: ExitPolicyView; audit: AuditEntry[] }
  | { v: Protocol; op: 'status'; status: VaultStatus }
  /** The agent (or a forward of an expired value) asks the page to renew a sign-in's value: seal it anew under `name`. */
  | { v: Protocol; op: 'refresh'; name: string; provider: string; request: string };

/** A namespace's `changed` goes out at most once in this many milliseconds (README, Embedding API: events). */
export const CHANGED_EVERY_MS = 100;

/** Everything a page port may receive. */
export type PageMessage = Welcome | Refused | Reply | ErrorReply | VaultEvent;

// ── The button ──────────────────────────────────────────────────────────────────────────

/** The embedder → button message, posted after the button iframe's `load`. */
export interface ButtonHello {
  type: 'slicc-vault-button';
  v: 1;
  theme?: 'light' | 'dark';
  scale?: 'medium' | 'large';
  /** The embedder shows the person's screens in a panel it frames (`panel.html`), not in a popup. */
  panel?: boolean;
}
/** The button → embedder message whenever the availability changes. */
export interface ButtonAvailability {
  type: 'slicc-vault-button';
  v: 1;
  availability: Availability;
}
/**
 * The button → embedder message on a click when the hello said `panel: true`: show (or keep showing)
 * an iframe of `url` (absolute, at the vault origin: `panel.html` for this namespace and screen) with
 * `allow="publickey-credentials-create; publickey-credentials-get"`.
 */
export interface ButtonPanel {
  type: 'slicc-vault-button';
  v: 1;
  op: 'panel';
  url: string;
}
/** The panel → embedder (its parent) message: remove the panel's iframe. The panel takes no message. */
export interface PanelClose {
  type: 'slicc-vault-panel';
  v: 1;
  op: 'close';
}

// ── Backups ─────────────────────────────────────────────────────────────────────────────

/** One record in a backup's plaintext: the record's fields and its value. */
export interface BackupRecord {
  name: string;
  kind: RecordKind;
  source: Source;
  placeholder: string;
  value: string;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  removedAt?: EpochMs;
  expiresAt?: EpochMs;
  provider?: string;
  account?: string;
}
/** A backup's plaintext (UTF-8 JSON inside an ASCII-armored age file encrypted to a passphrase). */
export interface BackupFile {
  format: 'slicc-vault-backup';
  v: 1;
  namespace: string;
  exportedAt: EpochMs;
  records: BackupRecord[];
}

// ── Deployment ──────────────────────────────────────────────────────────────────────────

/** `config.json`: deployment settings, nothing secret. */
export interface VaultConfig {
  name: string;
  passphraseIterations: number;
  requestLifetimeMs: number;
}
/** `embedders.json`: exact origins, or origins with one `*` label (`https://*.sliccy.ai`). */
export type EmbedderList = string[];
