// The agent's ops (README, The agent's ops), one session per agent port: `redact`, the scrub
// streams, and `endpoints`. Nothing on this port ever carries a value: matches are replaced,
// everything else passes through.
import type { ScrubHit } from './contract.ts';
import { VaultError, einval } from './errors.ts';
import { IDLE_MS, type ScrubStream } from './scrubber.ts';
import { addHits } from './scrubbers.ts';
import type { Vault } from './vault.ts';

export const MAX_STREAMS = 64;

interface OpenStream {
  version: number;
  stream: ScrubStream;
}

type Fields = Record<string, unknown>;

const isText = (t: unknown): t is string | Uint8Array => typeof t === 'string' || t instanceof Uint8Array;

export class AgentSession {
  private readonly streams = new Map<string, OpenStream>();

  constructor(
    private readonly vault: Vault,
    private readonly namespace: string,
  ) {}

  async answer(op: string, fields: Fields): Promise<object> {
    switch (op) {
      case 'redact':
        return this.redact(fields.texts);
      case 'redactStream':
        return this.open(fields.stream);
      case 'push': {
        if (!(fields.chunk instanceof Uint8Array)) throw einval('chunk must be a Uint8Array');
        const chunk = fields.chunk;
        return { chunk: (await this.current(fields.stream)).stream.push(chunk) };
      }
      case 'idle':
        return { chunk: (await this.current(fields.stream)).stream.idle() };
      case 'end': {
        const id = fields.stream as string;
        const open = await this.current(id);
        this.streams.delete(id);
        const chunk = open.stream.end();
        return { chunk, hits: open.stream.hits };
      }
      case 'drop':
        if (typeof fields.stream !== 'string') throw einval('stream must be a stream id');
        this.streams.delete(fields.stream);
        return {};
      case 'endpoints':
        return this.vault.registerEndpoints(this.namespace, fields.model, fields.mcp);
      default:
        throw new VaultError('ENOTSUP', `${op} is not built yet`);
    }
  }

  private async redact(texts: unknown) {
    if (!Array.isArray(texts) || !texts.every(isText)) throw einval('texts must be a list of strings and Uint8Arrays');
    const { version, scrubber } = await this.vault.scrubber(this.namespace);
    const hits: ScrubHit[] = [];
    const out = texts.map((text) => {
      const result = typeof text === 'string' ? scrubber.redact(text) : scrubber.redactBytes(text);
      addHits(hits, result.hits);
      return 'text' in result ? result.text : result.bytes;
    });
    return { texts: out, hits, version };
  }

  private async open(id: unknown) {
    if (typeof id !== 'string' || !id || id.length > 128) throw einval('stream must be an id of 1 to 128 characters');
    if (this.streams.has(id)) throw einval(`stream ${id} is already open`);
    if (this.streams.size >= MAX_STREAMS) throw new VaultError('EAGAIN', `at most ${MAX_STREAMS} streams may be open on a port`);
    const { version, scrubber } = await this.vault.scrubber(this.namespace);
    this.streams.set(id, { version, stream: scrubber.stream() });
    return { stream: id, idleMs: IDLE_MS, version };
  }

  /** The open stream, unless the values changed since it opened: then it is gone (EAGAIN). */
  private async current(id: unknown): Promise<OpenStream> {
    if (typeof id !== 'string') throw einval('stream must be a stream id');
    const open = this.streams.get(id);
    if (!open) throw new VaultError('ENOENT', `there is no open stream ${id}`);
    const { scrubVersion } = await this.vault.records.meta(this.namespace);
    if (scrubVersion !== open.version) {
      this.streams.delete(id);
      throw new VaultError('EAGAIN', `the values changed since stream ${id} opened; open it again and push its output from the start`);
    }
    return open;
  }
}
