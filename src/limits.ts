// Every limit of the README's Limits table, defined once. Past a limit an op answers EINVAL (EAGAIN
// for queues) with a message naming it, and changes nothing. Messages never echo the input.
import { VaultError, einval } from './errors.ts';

export const MiB = 1 << 20;

/** `redact`: texts per call and their size in all (README, Limits). */
export const MAX_REDACT_TEXTS = 10_000;
export const MAX_REDACT_BYTES = 64 * MiB;
/** Messages a frame (or a button) holds until its settings are in: only its parent's, at most this many. */
export const MAX_HELD_HELLOS = 16;
/**
 * The lock button's waits for a popup's word (README, Key store and lock: the button): after a
 * `window.open` that returned null (a block, or a popup opened without an opener from a cross-origin
 * isolated embedder), how long the popup has to say it is up before the button says "blocked"; and
 * how long the open popup has to answer when asked to come forward before the button opens another.
 */
export const POPUP_WORD_MS = 6000;
export const POPUP_FOCUS_MS = 1000;
/** An agent port's queue: requests waiting (the one being answered included) and their size. */
export const MAX_QUEUED_REQUESTS = 64;
export const MAX_QUEUED_BYTES = 128 * MiB;
/** `push`: one chunk. */
export const MAX_PUSH_BYTES = 16 * MiB;

/** A record: its name's characters, and its value's bytes of UTF-8 (README, Records). */
export const MAX_NAME = 128;
export const MIN_VALUE_BYTES = 8;
export const MAX_VALUE_BYTES = 65536;
/** The scrubber's own bound on a value, used on its own (a record's is MAX_VALUE_BYTES). */
export const MAX_SCRUB_VALUE_BYTES = MiB;

/** /dev/sealed fields. Names and values follow the record rules (validate.ts). */
export const MAX_PROMPT = 200;
export const MAX_PROVIDER = 128;
/** The agent's `grant`: scopes, and the characters of each. */
export const MAX_SCOPES = 32;
export const MAX_SCOPE = 128;
export const MAX_OAUTH_JSON = 8 * 1024;
export const MAX_URL = 8 * 1024;
export const MAX_TAG = 256;
/** A `req` given as JSON text. */
export const MAX_REQ_TEXT = MiB;
/**
 * The keys and values (each item and container counts) of a `req` given as JSON text: twice what
 * a request within the other limits holds (an 8 KiB `oauth` holds at most 4,096), and few enough
 * that the text is read well within the 50 ms bound, where 1 MiB of empty objects takes JSON.parse
 * about 60 ms alone.
 */
export const MAX_REQ_VALUES = 8192;
/** A request id (a UUID), an exit, a `test`'s method and header name. */
export const MAX_TOKEN = 128;

/** `materialize` (README, Exec): variables per call; the stamp's `argv`, elements and UTF-8 bytes in all. */
export const MAX_EXEC_VARS = 32;
export const MAX_ARGV = 256;
export const MAX_ARGV_BYTES = 64 * 1024;
/** A `materialize` audit entry keeps at most this many argv elements, each at most this many characters. */
export const MAX_AUDIT_ARGV = 16;
export const MAX_AUDIT_ARGV_CHARS = 256;
/** A `[limits]` rate above this counts as this: each reveal of its window is kept to count it. */
export const MAX_RATE = 100_000;

/** Requests per namespace: pending ones, and ended ones kept (the newest). */
export const MAX_PENDING_REQUESTS = 64;
export const MAX_ENDED_REQUESTS = 256;

/** Records per namespace (removed ones count until purged) and the bytes of their values. */
export const MAX_RECORDS = 10_000;
export const MAX_VALUE_TOTAL = 16 * MiB;

/** Policy files: TOML nesting, rules, paths per rule, warnings listed, changes audited, parses kept. */
export const MAX_TOML_DEPTH = 32;
export const MAX_RULES = 4096;
export const MAX_RULE_PATHS = 256;
export const MAX_WARNINGS = 100;
/** Changes a `policy` audit entry lists; `changesMore` counts the rest. */
export const MAX_AUDIT_CHANGES = 100;
/**
 * Audit entries kept per namespace: the oldest past this go, in the transaction of every
 * AUDIT_TRIM_EVERY-th entry of the vault, at most AUDIT_TRIM_MAX at a time, so a program that
 * forwards or seals in a loop can't grow the vault's storage without bound.
 */
export const MAX_AUDIT_ENTRIES = 10_000;
export const AUDIT_TRIM_EVERY = 64;
export const AUDIT_TRIM_MAX = 1000;
export const POLICY_CACHE_SIZE = 16;
/** A policy file's bytes: no policy file is anywhere near this; it bounds the work an attestation can cause. */
export const MAX_POLICY_FILE_BYTES = MiB;
/** An audit page asks for at most this many entries. */
export const MAX_AUDIT_LIMIT = 1000;
/**
 * How long a job of the vault's worker may go unanswered before the worker counts as gone: ended,
 * its jobs sent to a new one, once (a compile of 10,000 values takes about 210 ms here).
 */
export const WORKER_JOB_MS = 10_000;
/** Scrub streams open at once on one agent port. */
export const MAX_STREAMS = 64;

/** PBKDF2 iterations of a passphrase slot: from this many to that many, so no config or stored slot makes an unlock hang. */
export const MIN_ITERATIONS = 600_000;
export const MAX_ITERATIONS = 10_000_000;
/** Whether `n` is an allowed PBKDF2 iteration count. */
export function iterationsAllowed(n: unknown): n is number {
  return Number.isSafeInteger(n) && (n as number) >= MIN_ITERATIONS && (n as number) <= MAX_ITERATIONS;
}
/**
 * Passphrases' least lengths, in characters: the lock's (it guards this browser, where guesses are
 * slowed and counted) and a backup's (a file anyone may copy and attack offline, so longer).
 */
export const MIN_PASSPHRASE_LENGTH = 8;
export const MIN_BACKUP_PASSPHRASE = 12;
/** The largest file a restore reads: a namespace's 16 MiB of values, JSON-escaped and armored. */
export const MAX_RESTORE_FILE_BYTES = 64 * MiB;
/** A `.env` file's lines: four per record a namespace may hold. */
export const MAX_DOTENV_LINES = 4 * MAX_RECORDS;
/** An origin read from a file (a backup's namespace): a scheme, a DNS name of at most 253 characters and a port fit. */
export const MAX_ORIGIN = 300;

const fmt = (n: number) => n.toLocaleString('en-US');

/** A size as the README writes it: `64 MiB`, `8 KiB`, or bytes. */
export function size(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${fmt(bytes)} bytes`;
}

/**
 * The size a text counts for: a `Uint8Array`'s bytes, a string's length in UTF-16 code units (what
 * JavaScript knows without reading the text; each is at most 3 bytes of UTF-8).
 */
export function textSize(text: string | Uint8Array): number {
  return typeof text === 'string' ? text.length : text.byteLength;
}

/** Checks the number of `redact`'s texts, before any of them is looked at. */
export function checkRedactCount(texts: readonly unknown[]): void {
  if (texts.length > MAX_REDACT_TEXTS) throw einval(`redact takes at most ${fmt(MAX_REDACT_TEXTS)} texts per call`);
}

/** Checks the size of `redact`'s texts in all (their count checked first), without reading any text. */
export function checkRedactBytes(texts: readonly (string | Uint8Array)[]): void {
  let total = 0;
  for (const text of texts) total += textSize(text);
  if (total > MAX_REDACT_BYTES) throw einval(`redact takes at most ${size(MAX_REDACT_BYTES)} of texts per call`);
}

/** How far `queuedSize` looks: the deepest op's fields (an MCP server's `names`), and more entries than any op may hold. */
const MEASURED_DEPTH = 4;
const MEASURED_ENTRIES = 1 << 17;

/**
 * What a request costs while it waits in a port's queue: the strings (two bytes per code unit), its
 * field names and indices among them, and the buffers it carries, so measuring it reads no text
 * and is itself bounded. A view counts the whole buffer it came with, once (a message carries all
 * of a view's buffer: a 1-byte view can hold a gigabyte). Numbers and the like count nothing. A request it can't measure whole (nested deeper
 * than any op's fields, more entries than any op takes, a Map, a Blob or any other object but a
 * list or a plain one) counts as the whole queue's room: it waits only where nothing else does.
 */
export function queuedSize(data: unknown): number {
  let total = 0;
  let budget = MEASURED_ENTRIES;
  let whole = true;
  // The first buffer apart: a request carries one at most but for `redact`'s texts.
  let first: ArrayBufferLike | undefined;
  let more: Set<ArrayBufferLike> | undefined;
  const buffer = (b: ArrayBufferLike) => {
    if (b === first || more?.has(b)) return;
    if (first === undefined) first = b;
    else (more ??= new Set()).add(b);
    total += b.byteLength;
  };
  const add = (v: unknown, depth: number): void => {
    if (!whole) return;
    if (budget-- <= 0) whole = false;
    else if (typeof v === 'string') total += v.length * 2;
    else if (v === null || typeof v !== 'object') return;
    else if (ArrayBuffer.isView(v)) buffer(v.buffer);
    else if (v instanceof ArrayBuffer) buffer(v);
    else if (depth >= MEASURED_DEPTH) whole = false;
    else if (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) whole = false;
    // An array's named properties travel too, and every name: both are counted.
    else
      for (const key in v) {
        if (!whole) break;
        total += key.length * 2;
        add((v as Record<string, unknown>)[key], depth + 1);
      }
  };
  add(data, 0);
  return whole ? total : MAX_QUEUED_BYTES;
}

export const queueFull = () =>
  new VaultError('EAGAIN', `at most ${MAX_QUEUED_REQUESTS} requests and ${size(MAX_QUEUED_BYTES)} may wait on an agent port; wait for replies`);

/** `push`'s chunk: at most 16 MiB. */
export function checkPushSize(chunk: Uint8Array): void {
  if (chunk.byteLength > MAX_PUSH_BYTES) throw einval(`push takes a chunk of at most ${size(MAX_PUSH_BYTES)}`);
}

/** An optional string field of at most `max` characters; the message never echoes it. */
export function boundedString(field: string, value: unknown, max: number, optional = false): string | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string' || !value) throw einval(`${field} must be a non-empty string`);
  if (value.length > max) throw einval(`${field} must be at most ${fmt(max)} characters`);
  return value;
}

/**
 * The length of a value as JSON text, reading no further than about `max` characters' worth first: a
 * deep or huge object costs at most that much to measure. Answers `max + 1` for anything over, or
 * anything JSON can't write.
 */
export function jsonSizeWithin(value: unknown, max: number): number {
  let total = 0;
  const over = () => total > max;
  // Counts no more than JSON.stringify would write (escapes aside), so it only refuses what is over.
  const walk = (v: unknown, depth: number): void => {
    if (over()) return;
    if (depth > 64) {
      total = max + 1;
      return;
    }
    if (typeof v === 'number') total += Number.isFinite(v) ? String(v).length : 4;
    else if (v === null || typeof v === 'boolean') total += String(v).length;
    else if (typeof v === 'string') total += v.length + 2;
    else if (Array.isArray(v)) {
      total += 2 + Math.max(0, v.length - 1);
      for (let i = 0; i < v.length && !over(); i++) walk(v[i], depth + 1);
    } else if (typeof v === 'object') {
      total += 1;
      for (const key in v) {
        if (over()) return;
        total += key.length + 4; // quotes, colon, and a comma or the closing brace
        walk((v as Record<string, unknown>)[key], depth + 1);
      }
    } else if (v !== undefined) total = max + 1;
  };
  walk(value, 0);
  if (over()) return max + 1;
  // Within reach: the exact figure, escapes included, costs little now.
  try {
    return JSON.stringify(value)?.length ?? max + 1;
  } catch {
    return max + 1;
  }
}

export function checkOauthSize(oauth: unknown): void {
  if (jsonSizeWithin(oauth, MAX_OAUTH_JSON) > MAX_OAUTH_JSON) {
    throw einval(`oauth must be at most ${size(MAX_OAUTH_JSON)} as JSON`);
  }
}

export const tooManyReqValues = () => einval(`req must hold at most ${fmt(MAX_REQ_VALUES)} keys and values as JSON text`);
export const tooManyRecords = () => einval(`a namespace holds at most ${fmt(MAX_RECORDS)} records (removed ones count until purged)`);
export const tooManyValueBytes = () => einval(`a namespace holds at most ${size(MAX_VALUE_TOTAL)} of values in all`);
export const tooManyPending = () => new VaultError('EAGAIN', `a namespace holds at most ${MAX_PENDING_REQUESTS} pending requests; wait for one to end`);

// ── The injector's and the registrations' limits (README, Limits) ───────────────────────────

/** A model or MCP request's body, which the vault scrubs and returns for bios to send, in bytes. */
export const MAX_BODY_BYTES = 32 * MiB;
/** A forwarded URL, in UTF-8 bytes: the same 8 KiB as /dev/sealed's `url`. */
export const MAX_URL_BYTES = MAX_URL;
/** Headers in one forwarded head. */
export const MAX_HEADERS = 256;
/** A forwarded head: method, URL and every header name and value, in UTF-8 bytes. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** Registered endpoints (model URLs and MCP servers together) per namespace. */
export const MAX_REGISTERED = 256;
/** One registered URL, in UTF-8 bytes. */
export const MAX_REGISTERED_URL_BYTES = 2 * 1024;
/** `*` in one registered URL. */
export const MAX_REGISTERED_STARS = 8;
/** Record names one registered MCP server may list (`names`), in a request and kept. */
export const MAX_SERVER_NAMES = 256;

/** UTF-8 length of a string without encoding it (a lone surrogate counts as the 3 bytes of U+FFFD). */
const NON_ASCII = /[^\x00-\x7f]/;
export function utf8Length(text: string): number {
  // ASCII is one byte a character: one native scan instead of a loop of ours.
  if (!NON_ASCII.test(text)) return text.length;
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

/** A refresh is asked for a value that expires within this long, or has (README, The agent's ops). */
export const REFRESH_SOON_MS = 60_000;

// ── Upkeep, pages and memory (README, Records; Limits) ─────────────────────────────────────

/** The newest audit entries a document keeps per namespace: the first `audit` page. */
export const AUDIT_PAGE = 100;
/** Removed records, and ended requests, are purged this long after (README, Records). */
export const PURGE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
/** Records read per step of a purge's search. */
export const PURGE_BATCH = 200;
/** A record's model requests within this long of its current `model` audit entry count in it. */
export const MODEL_AUDIT_MS = 60 * 1000;
/** The page is sent a record's `refresh` event at most this often, across the namespace's documents (README, The agent's ops). */
export const REFRESH_EVERY_MS = 60_000;
/** A use is written to IndexedDB at most this often per document: the idle time is that exact. */
export const NOTE_USE_EVERY_MS = 10_000;
/** How many audited (SHA-256, verdict) pairs are remembered per policy file. */
export const AUDIT_MEMORY = 64;
/** Records a namespace's summary reads to look for a secret not removed. */
export const SUMMARY_RECORDS = 16;

// ── Slices, streams and automata (README, Limits: heavy work) ──────────────────────────────

/**
 * A piece of a text scrubbed at once: well under a millisecond of work on usual text, and about
 * 4 ms in Node, 10 ms in Firefox, on the slowest text measured (1,000 values sharing a prefix, and
 * that prefix with every character a JSON escape, repeated, where every start is tried: about
 * 130 ms a MiB in Node, 320 in Firefox, where 128 KiB pieces held the thread 78 ms; docs/limits.md).
 */
export const PIECE_BYTES = 1 << 15;
/**
 * The characters a string is scanned at once between looks at the clock (the scan resumes where it
 * stopped, so a step costs nothing but the look): a slow engine's slice still ends within ~8 ms
 * and one step, where a fixed piece's time grows with the engine's speed per byte.
 */
export const SCAN_STEP_CHARS = 1 << 12;
/** How long a slice may run before it yields. */
export const SLICE_MS = 8;
/** A stream's `idle()` releases its held tail only this long after its last `push`. */
export const IDLE_MS = 250;
/** States a glob part's lazy DFA keeps; past that, the automaton is stepped without it. */
export const DFA_STATES = 256;
/** A job of the vault's worker is sent this many times in all: to a new worker once, then it fails. */
export const WORKER_TRIES = 2;
/**
 * At most this many values, of this many bytes in all, changed since a namespace's last compile are
 * scrubbed beside it for a write's audit text, compiled on the spot for a text long enough to hold
 * one; more, and the write waits for the worker's compile (README, Limits: heavy work leaves the
 * main thread). From AUDIT_BESIDE_COMPILE values on, the worker's compile starts at once.
 */
export const AUDIT_BESIDE_VALUES = 128;
export const AUDIT_BESIDE_BYTES = 65_536;
export const AUDIT_BESIDE_COMPILE = 32;
