// The agent's ops (README, The agent's ops), one session per agent port: `redact`, the scrub
// streams, and `endpoints`. Nothing on this port ever carries a value (README, The agent's ops):
// stream ids are checked before use and never echoed in errors, and every string of a reply or
// error other than the scrubbed texts and chunks passes the scrubber before it is posted.
import type { AgentRequestState } from '../contract.ts';
import { VaultError, einval, enoent } from '../errors.ts';
import type { InEffect, Registered } from '../inject/index.ts';
import { IDLE_MS, MAX_STREAMS, REFRESH_SOON_MS } from '../limits.ts';
import { type ScrubStream, type Scrubber, pushSliced, redactSliced } from '../scrub/index.ts';
import { type StoredRecord, type StoredRequest, stateAt } from '../store/index.ts';
import { agentRecords, mcpCredentials, modelCredential } from './credentials.ts';
import type { AgentCommand } from './parse.ts';

/** A namespace's scrubber as the vault compiled it, with the scrub version it was compiled at. */
interface Compiled {
  version: number;
  scrubber: Scrubber;
}

/** What an agent session uses of the vault: the namespace's scrubber, records and requests, registration and the agent's requests. */
export interface AgentVault {
  reads: {
    now(): number;
    all(namespace: string): Promise<StoredRecord[]>;
    /** The live `model` records bound to a provider however it is spelled, by name. */
    modelRecords(namespace: string, provider: string): Promise<readonly StoredRecord[]>;
    inEffect(namespace: string): Promise<InEffect>;
    requestOf(namespace: string, id: string): Promise<StoredRequest>;
    scrubber(namespace: string): Promise<Compiled>;
    /** The newest compiled scrubber (compiling first when it can), if there is one. */
    newestScrubber(namespace: string): Promise<Compiled | undefined>;
    scrubVersion(namespace: string): Promise<number>;
    /** Brings the namespace in memory up to the stored revision (one small read). */
    fresh(namespace: string): Promise<void>;
  };
  writes: {
    registerEndpoints(namespace: string, added: Registered): Promise<{ ok: true }>;
    grant(namespace: string, agent: string, fields: { provider: string; scopes?: string[]; account?: string }): Promise<{ request: string }>;
    refresh(namespace: string, name: string, provider: string, agent: string): Promise<{ request: string }>;
  };
}

interface OpenStream {
  version: number;
  scrubber: Scrubber;
  stream: ScrubStream;
}

/** Reply fields that hold scrubbed texts: never scanned again. */
const SCRUBBED = new Set(['texts', 'chunk']);

export class AgentSession {
  /** This port's own id: its requests are its own (one pending sign-in a port). */
  readonly id = crypto.randomUUID();
  private readonly streams = new Map<string, OpenStream>();
  /** The scrubber the op in progress used, to check its reply with. */
  private used: Scrubber | undefined;

  constructor(
    private readonly vault: AgentVault,
    private readonly namespace: string,
  ) {}

  /** The reply to one op, every string in it scrubbed; an error thrown is scrubbed likewise. */
  async reply(command: AgentCommand): Promise<object> {
    this.used = undefined;
    try {
      const reply = await this.answer(command);
      return this.clean(reply, this.used ?? (await this.scrubber()));
    } catch (error) {
      throw this.cleanError(error, await this.scrubber());
    }
  }

  /** An error raised before the op ran (the gateway's checks), scrubbed. */
  async refuse(error: unknown): Promise<unknown> {
    this.used = undefined;
    return this.cleanError(error, await this.scrubber());
  }

  private async answer(command: AgentCommand): Promise<object> {
    switch (command.op) {
      case 'redact':
        return this.redact(command.texts);
      case 'redactStream':
        return this.open(command.stream);
      case 'push':
        return { chunk: await pushSliced((await this.current(command.stream)).stream, command.chunk) };
      case 'idle':
        return { chunk: (await this.current(command.stream)).stream.idle() };
      case 'end': {
        const open = await this.current(command.stream);
        this.streams.delete(command.stream);
        const chunk = open.stream.end();
        return { chunk, hits: open.stream.hits };
      }
      case 'drop':
        this.streams.delete(command.stream);
        return {};
      case 'endpoints':
        return this.vault.writes.registerEndpoints(this.namespace, command.added);
      case 'records':
        return { records: agentRecords(...(await this.credentials())) };
      case 'model': {
        await this.vault.reads.fresh(this.namespace);
        const [bound, effect] = await Promise.all([this.vault.reads.modelRecords(this.namespace, command.provider), this.vault.reads.inEffect(this.namespace)]);
        return modelCredential(bound, effect);
      }
      case 'mcp': {
        const [records, effect] = await this.credentials();
        return mcpCredentials(records, command.server, effect);
      }
      case 'grant':
        if ('request' in command) return this.requestState(command.request, 'oauth');
        return this.vault.writes.grant(this.namespace, this.id, { provider: command.provider, scopes: command.scopes, account: command.account });
      case 'refresh':
        if ('request' in command) return this.requestState(command.request, 'refresh');
        return this.refresh(command.name);
    }
  }

  /** The namespace's records and what is in effect, as stored now. */
  private async credentials(): Promise<[StoredRecord[], InEffect]> {
    await this.vault.reads.fresh(this.namespace);
    return Promise.all([this.vault.reads.all(this.namespace), this.vault.reads.inEffect(this.namespace)]);
  }

  /** A sign-in's value the page is asked to renew, unless it isn't expired, nor soon. */
  private async refresh(name: string) {
    const record = (await this.credentials())[0].find((r) => r.name === name);
    if (!record) throw enoent('there is no record of that name');
    if (!record.source.startsWith('oauth:')) throw einval(`${name} is not a sign-in's value; only OAuth values are refreshed`);
    if (record.expiresAt === undefined || record.expiresAt > this.vault.reads.now() + REFRESH_SOON_MS) {
      return { state: 'fresh' as const, ...(record.expiresAt !== undefined && { expiresAt: record.expiresAt }) };
    }
    return this.vault.writes.refresh(this.namespace, name, record.source.slice('oauth:'.length), this.id);
  }

  /** The state of a request an agent asked for; ENOENT for any other (a kernel's, the page's, another kind). */
  private async requestState(id: string, kind: 'oauth' | 'refresh'): Promise<AgentRequestState> {
    const r = await this.vault.reads.requestOf(this.namespace, id).catch(() => null);
    if (!r || r.agent === undefined || r.kind !== kind) throw enoent('there is no request with that id');
    const state = stateAt(r, this.vault.reads.now());
    return {
      request: r.id,
      state,
      ...(state === 'done' && r.name !== undefined && { name: r.name }),
      ...(state === 'done' && r.placeholder !== undefined && { placeholder: r.placeholder }),
    };
  }

  private async redact(texts: (string | Uint8Array)[]) {
    // A value another document wrote a moment ago is scrubbed too, though its notice hasn't come:
    // the stored revision is read while the texts are scrubbed, and nothing is answered before it
    // is in; when it brought other values, the texts are scrubbed again with them.
    const checked = this.vault.reads.fresh(this.namespace);
    checked.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
    let { version, scrubber } = await this.vault.reads.scrubber(this.namespace);
    this.used = scrubber;
    // In slices that yield (README, Limits): a big or long redact never holds the thread for long.
    let result = await redactSliced(scrubber, texts);
    await checked;
    const now = await this.vault.reads.scrubber(this.namespace);
    if (now.version !== version) {
      ({ version, scrubber } = now);
      this.used = scrubber;
      result = await redactSliced(scrubber, texts);
    }
    return { texts: result.texts, hits: result.hits, version };
  }

  private async open(id: string) {
    if (this.streams.has(id)) throw einval('that stream is already open');
    if (this.streams.size >= MAX_STREAMS) throw new VaultError('EAGAIN', `at most ${MAX_STREAMS} streams may be open on a port`);
    await this.vault.reads.fresh(this.namespace);
    const { version, scrubber } = await this.vault.reads.scrubber(this.namespace);
    this.used = scrubber;
    // The stream measures idle() by the vault's clock, from its own last push.
    this.streams.set(id, { version, scrubber, stream: scrubber.stream({ idleMs: IDLE_MS }) });
    return { stream: id, idleMs: IDLE_MS, version };
  }

  /** The open stream, unless the values changed since it opened: then it is gone (EAGAIN). */
  private async current(id: string): Promise<OpenStream> {
    const open = this.streams.get(id);
    if (!open) throw new VaultError('ENOENT', 'there is no open stream with that id');
    const scrubVersion = await this.vault.reads.scrubVersion(this.namespace);
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
    return (await this.vault.reads.newestScrubber(this.namespace))?.scrubber;
  }

  /** A copy of `value` with every string scrubbed, at any depth (a stack, not recursion): but the fields in SCRUBBED, already clean. */
  private clean<T>(value: T, scrubber: Scrubber | undefined): T {
    if (!scrubber) return value;
    const root: Record<string, unknown> = { value };
    type Holder = Record<string | number, unknown>;
    const stack: [Holder, string | number][] = [[root, 'value']];
    while (stack.length > 0) {
      const [holder, key] = stack.pop()!;
      const v = holder[key];
      if (typeof v === 'string') holder[key] = scrubber.redact(v).text;
      else if (Array.isArray(v)) {
        const out = v.slice();
        holder[key] = out;
        for (let i = 0; i < out.length; i++) stack.push([out as unknown as Holder, i]);
      } else if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
        const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
        holder[key] = out;
        for (const k in out) if (!SCRUBBED.has(k)) stack.push([out, k]);
      }
    }
    return root.value as T;
  }

  private cleanError(error: unknown, scrubber: Scrubber | undefined): unknown {
    if (!(error instanceof VaultError) || !scrubber) return error;
    const message = scrubber.redact(error.message).text;
    return message === error.message ? error : new VaultError(error.code, message);
  }
}
