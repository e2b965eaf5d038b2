// The agent's ops (README, The agent's ops), one session per agent port: `redact`, the scrub
// streams, and `endpoints`. Nothing on this port ever carries a value (README, The agent's ops):
// stream ids are checked before use and never echoed in errors, and every string of a reply or
// error other than the scrubbed texts and chunks passes the scrubber before it is posted.
import { VaultError, einval } from './errors.ts';
import { IDLE_MS, type ScrubStream, type Scrubber } from './scrubber.ts';
import { STREAM_ID } from './validate.ts';
import type { Vault } from './vault.ts';
import { checkPushSize, checkRedactSize } from './limits.ts';
import { pushSliced, redactSliced } from './slices.ts';

export const MAX_STREAMS = 64;

interface OpenStream {
  version: number;
  scrubber: Scrubber;
  stream: ScrubStream;
}

type Fields = Record<string, unknown>;

const isText = (t: unknown): t is string | Uint8Array => typeof t === 'string' || t instanceof Uint8Array;

/** Reply fields that hold scrubbed texts: never scanned again. */
const SCRUBBED = new Set(['texts', 'chunk']);

export class AgentSession {
  private readonly streams = new Map<string, OpenStream>();
  /** The scrubber the op in progress used, to check its reply with. */
  private used: Scrubber | undefined;

  constructor(
    private readonly vault: Vault,
    private readonly namespace: string,
  ) {}

  /** The reply to one op, every string in it scrubbed; an error thrown is scrubbed likewise. */
  async reply(op: string, fields: Fields): Promise<object> {
    this.used = undefined;
    try {
      return this.clean(await this.answer(op, fields), await this.scrubber());
    } catch (error) {
      throw this.cleanError(error, await this.scrubber());
    }
  }

  /** An error raised before the op ran (the gateway's checks), scrubbed. */
  async refuse(error: unknown): Promise<unknown> {
    this.used = undefined;
    return this.cleanError(error, await this.scrubber());
  }

  private async answer(op: string, fields: Fields): Promise<object> {
    switch (op) {
      case 'redact':
        return this.redact(fields.texts);
      case 'redactStream':
        return this.open(fields.stream);
      case 'push': {
        if (!(fields.chunk instanceof Uint8Array)) throw einval('chunk must be a Uint8Array');
        const chunk = fields.chunk;
        checkPushSize(chunk);
        return { chunk: await pushSliced((await this.current(fields.stream)).stream, chunk) };
      }
      case 'idle':
        return { chunk: (await this.current(fields.stream)).stream.idle() };
      case 'end': {
        const open = await this.current(fields.stream);
        this.streams.delete(fields.stream as string);
        const chunk = open.stream.end();
        return { chunk, hits: open.stream.hits };
      }
      case 'drop':
        this.streams.delete(streamId(fields.stream));
        return {};
      case 'endpoints':
        return this.vault.registerEndpoints(this.namespace, fields.model, fields.mcp);
      default:
        throw new VaultError('ENOTSUP', 'that op is not built yet');
    }
  }

  private async redact(texts: unknown) {
    if (!Array.isArray(texts) || !texts.every(isText)) throw einval('texts must be a list of strings and Uint8Arrays');
    checkRedactSize(texts);
    const { version, scrubber } = await this.vault.scrubber(this.namespace);
    this.used = scrubber;
    // In slices that yield (README, Limits): a big or long redact never holds the thread for long.
    const { texts: out, hits } = await redactSliced(scrubber, texts);
    return { texts: out, hits, version };
  }

  private async open(stream: unknown) {
    const id = streamId(stream);
    if (this.streams.has(id)) throw einval('that stream is already open');
    if (this.streams.size >= MAX_STREAMS) throw new VaultError('EAGAIN', `at most ${MAX_STREAMS} streams may be open on a port`);
    const { version, scrubber } = await this.vault.scrubber(this.namespace);
    this.used = scrubber;
    // The stream measures idle() by the vault's clock, from its own last push.
    this.streams.set(id, { version, scrubber, stream: scrubber.stream({ idleMs: IDLE_MS }) });
    return { stream: id, idleMs: IDLE_MS, version };
  }

  /** The open stream, unless the values changed since it opened: then it is gone (EAGAIN). */
  private async current(stream: unknown): Promise<OpenStream> {
    const id = streamId(stream);
    const open = this.streams.get(id);
    if (!open) throw new VaultError('ENOENT', 'there is no open stream with that id');
    const { scrubVersion } = await this.vault.records.meta(this.namespace);
    if (scrubVersion !== open.version) {
      this.streams.delete(id);
      throw new VaultError('EAGAIN', 'the values changed since that stream opened; open it again and push its output from the start');
    }
    this.used = open.scrubber;
    return open;
  }

  /** The scrubber to check a reply with: the op's own, else the newest compiled (none before the first unlock). */
  private async scrubber(): Promise<Scrubber | undefined> {
    if (this.used) return this.used;
    const compiled = await this.vault.scrubbers.refresh(this.namespace).catch(() => this.vault.scrubbers.get(this.namespace));
    return compiled?.scrubber;
  }

  private clean<T>(value: T, scrubber: Scrubber | undefined, depth = 0): T {
    if (!scrubber || depth > 8) return value;
    if (typeof value === 'string') return scrubber.redact(value).text as T;
    if (Array.isArray(value)) return value.map((v) => this.clean(v, scrubber, depth + 1)) as T;
    if (!value || typeof value !== 'object' || value instanceof Uint8Array) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SCRUBBED.has(k) ? v : this.clean(v, scrubber, depth + 1);
    return out as T;
  }

  private cleanError(error: unknown, scrubber: Scrubber | undefined): unknown {
    if (!(error instanceof VaultError) || !scrubber) return error;
    const message = scrubber.redact(error.message).text;
    return message === error.message ? error : new VaultError(error.code, message);
  }
}

/** A stream id as the agent gave it, if it is one; the id itself never goes into the error. */
function streamId(id: unknown): string {
  if (typeof id !== 'string' || !STREAM_ID.test(id)) throw einval('stream must be an id of 1 to 64 characters of A-Z a-z 0-9 . _ : -');
  return id;
}
