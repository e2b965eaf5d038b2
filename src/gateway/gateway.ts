// The gateway (README, Embedding API): answers the embedder's hello, owns the ports, checks roles,
// answers each port in order (FIFO) and pushes events to page ports. Each request is parsed once
// into a typed command; the work is the vault's (`reads`, `writes`) and the op families'.
import { AgentSession } from '../agent/index.ts';
import { CHANGED_EVERY_MS, type EmbedderList, type ErrorBody, type Role, type VaultStatus } from '../contract.ts';
import type { Vault } from '../core/index.ts';
import { VaultError, einval, errorBody } from '../errors.ts';
import { forward } from '../forward/index.ts';
import { MAX_QUEUED_BYTES, MAX_QUEUED_REQUESTS, queueFull, queuedSize } from '../limits.ts';
import { answerSealed } from '../sealed/index.ts';
import type { Change, RefreshAsk } from '../store/index.ts';
import { type PageCommand, parseAgentCommand, parsePageCommand } from './commands.ts';
import { originAllowed } from './settings.ts';

type Fields = Record<string, unknown>;

interface Connection {
  port: MessagePort;
  role: Role;
  namespace: string;
  /** The port's queue: each request is answered after the one before it. */
  tail: Promise<void>;
  /** The status fields this port last saw, to push `status` only when they change. */
  seen: string;
  /** The agent port's streams. */
  agent?: AgentSession;
  /** Requests waiting on this port (the one being answered included), and their size. */
  waiting: number;
  waitingBytes: number;
}

/** The part of a status whose change is pushed as a `status` event. */
const statusKey = (s: VaultStatus) => JSON.stringify([s.locked, s.lock, s.keyLost, s.waiting, s.backupReminder]);

export class Gateway {
  private readonly connections = new Set<Connection>();

  constructor(
    private readonly vault: Vault,
    private readonly embedders: EmbedderList,
    private readonly win: Window = window,
  ) {
    vault.onChange((namespace, changes, refresh) => this.push(namespace, changes, refresh));
  }

  /** The namespaces this document has page ports of (an embedder said hello as `page`). */
  namespaces(): string[] {
    return [...new Set([...this.connections].filter((c) => c.role === 'page').map((c) => c.namespace))];
  }

  /** A window message: answered only when it is a hello from the parent, at an allowed origin. */
  async hello(event: MessageEvent): Promise<void> {
    const data = event.data as { type?: unknown; op?: unknown; v?: unknown; role?: unknown } | null;
    if (!data || typeof data !== 'object' || data.type !== 'slicc-vault' || data.op !== 'hello') return;
    if (this.win.parent === this.win || event.source !== this.win.parent) return;
    if (!originAllowed(event.origin, this.embedders)) return;
    const ancestor = this.win.location.ancestorOrigins?.[0];
    if (ancestor !== undefined && ancestor !== event.origin) return;
    const port = event.ports[0];
    if (!port) return;

    const refuse = (error: ErrorBody) => {
      port.postMessage({ v: 1, op: 'refused', error });
      port.close();
    };
    if (data.v !== 1) return refuse({ code: 'ENOTSUP', message: `protocol version ${String(data.v)} isn't spoken here; this vault speaks 1` });
    const role = data.role ?? 'page';
    if (role !== 'page' && role !== 'agent') return refuse({ code: 'EINVAL', message: 'role must be page or agent' });

    const namespace = event.origin;
    const status = await this.vault.reads.welcome(namespace);
    const connection: Connection = { port, role, namespace, tail: Promise.resolve(), seen: statusKey(status), waiting: 0, waitingBytes: 0 };
    if (role === 'agent') connection.agent = new AgentSession(this.vault, namespace);
    port.postMessage({ v: 1, op: 'welcome', role, status });
    this.connections.add(connection);
    port.onmessage = (message) => this.enqueue(connection, message.data, message.ports);
  }

  /**
   * Chromium fires no `close` on a port whose other end closed, so the vault can't see an embedder
   * hang up: its queued requests still run, each whole in one transaction, and their replies go
   * nowhere. When the frame itself goes away, the queue goes with it.
   */
  private enqueue(connection: Connection, data: unknown, ports: readonly MessagePort[]) {
    // An agent port's queue is bounded (README, Limits): past it a request is refused EAGAIN, in
    // its turn, holding nothing but its id meanwhile. The page is trusted; its queue isn't bounded.
    const bounded = connection.role === 'agent';
    const bytes = bounded ? queuedSize(data) : 0;
    if (bounded && (connection.waiting >= MAX_QUEUED_REQUESTS || connection.waitingBytes + bytes > MAX_QUEUED_BYTES)) {
      const id = (data as { id?: unknown } | null)?.id;
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) return;
      connection.tail = connection.tail.then(() => connection.port.postMessage({ v: 1, id, error: queueFull().body })).catch(() => {});
      return;
    }
    connection.waiting++;
    connection.waitingBytes += bytes;
    // Whatever a request throws, even while posting its reply, the next one in the queue runs.
    connection.tail = connection.tail
      .then(async () => {
        try {
          const reply = await this.answer(connection, data, ports);
          if (!reply) return;
          try {
            connection.port.postMessage(reply, bounded ? replyBuffers(reply) : bodyBuffer(reply));
          } catch (error) {
            // A reply that can't be posted (not cloneable) goes as an error reply instead.
            connection.port.postMessage({ v: 1, id: reply.id, error: errorBody(error) });
          }
        } finally {
          connection.waiting--;
          connection.waitingBytes -= bytes;
        }
      })
      .catch((error) => console.error(`slicc-vault: a request failed (${(error as Error)?.name ?? 'error'})`));
  }

  /** The reply to one request, or `null` for a message that isn't one (no readable id). */
  private async answer(connection: Connection, data: unknown, ports: readonly MessagePort[]): Promise<Record<string, unknown> | null> {
    if (!data || typeof data !== 'object') return null;
    const { v, id, op, ...fields } = data as Fields;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
    try {
      if (v !== 1) throw einval('v must be 1');
      if (typeof op !== 'string' || !op) throw einval('op must be a non-empty string');
      // Errors name the op and its fields, never an oversized one (README, Limits).
      if (op.length > 64) throw einval('op must be an op of this vault');
      for (const field in fields) if (field.length > 64) throw einval("a field's name is longer than 64 characters");
      const result = connection.role === 'page' ? this.page(connection.namespace, op, fields, ports) : this.agent(connection.agent!, op, fields);
      return { v: 1, id, op, ...(result instanceof Promise ? await result : result) };
    } catch (error) {
      if (!(error instanceof VaultError)) console.error(`slicc-vault: ${String(op)} failed (${(error as Error)?.name ?? 'error'})`);
      return { v: 1, id, error: errorBody(error) };
    }
  }

  private page(namespace: string, op: string, fields: Fields, ports: readonly MessagePort[]): object | Promise<object> {
    const command = parsePageCommand(op, fields, ports);
    // bios's most frequent op, from memory without a wait once the namespace is in (docs/benchmarks.md, seventh pass).
    const status = command.op === 'status' ? this.vault.reads.statusNow(namespace) : undefined;
    return status ? { status } : this.runPage(namespace, command);
  }

  private async runPage(namespace: string, command: PageCommand & { person?: true }): Promise<object> {
    const result = await this.run(namespace, command);
    // Only the person keeps the vault open (README, Key store and lock: auto-lock).
    if (command.person) await this.vault.writes.personActed();
    return result;
  }

  /** Runs one page command: the vault's method for it, with typed input only. */
  private async run(namespace: string, command: PageCommand): Promise<object> {
    const { reads, writes } = this.vault;
    switch (command.op) {
      case 'status':
        return { status: await reads.status(namespace) };
      case 'placeholders':
        return reads.placeholders(namespace);
      case 'list':
        return { list: await reads.list(namespace) };
      case 'audit':
        return reads.audit(namespace, command.before, command.limit);
      case 'put':
        return writes.put(namespace, command.input, command.request);
      case 'seal':
        return writes.seal(namespace, command.input);
      case 'remove':
        return writes.remove(namespace, command.name);
      case 'restore':
        return writes.restore(namespace, command.name);
      case 'cancel':
        return writes.cancel(namespace, command.request);
      case 'sealed':
        return { reply: 'error' in command.req ? command.req : await answerSealed(this.vault, namespace, command.req, command.stamp) };
      case 'lock':
        await writes.lock();
        return {};
      case 'dismissBackupReminder':
        return writes.dismissBackupReminder(namespace);
      case 'unregister':
        return writes.unregister(namespace, command.gone);
      case 'export':
        return writes.askBackup(namespace, 'backup');
      case 'import':
        return writes.askBackup(namespace, 'restore');
      case 'policy':
        return writes.applyPolicy(namespace, command.files);
      case 'forward':
        return forward(this.vault, namespace, command.request, command.port);
    }
  }

  /** Every string of an agent-port reply or error is scrubbed by the session (README, The agent's ops). */
  private async agent(session: AgentSession, op: string, fields: Fields): Promise<object> {
    let command: ReturnType<typeof parseAgentCommand>;
    try {
      command = parseAgentCommand(op, fields);
    } catch (error) {
      throw await session.refuse(error);
    }
    return session.reply(command);
  }

  /** Pushes events to this document's page ports of the namespace (all namespaces for `null`). */
  private push(namespace: string | null, changes: Change[], refresh?: RefreshAsk): Promise<void> {
    // One after the other: an event is worked out only once the one before is posted, so a `status`
    // worked out before a change (a lock) never goes out after the one that tells of it.
    const turn = this.pushing.then(() => this.pushNow(namespace, changes, refresh));
    this.pushing = turn.catch((error) => console.error(`slicc-vault: an event failed (${(error as Error)?.name ?? 'error'})`));
    return this.pushing;
  }

  private pushing: Promise<void> = Promise.resolve();
  /** Per namespace, when its last `changed` went out, and whether one waits for its window. */
  private readonly changedAt = new Map<string, number>();
  private readonly changedDue = new Set<string>();

  /**
   * Whether `changed` goes out now: at most one per namespace every CHANGED_EVERY_MS (README,
   * Events); one asked for sooner waits for the end of the window and then carries the state of
   * that moment, so a burst of writes ends with one `changed` of its last state.
   */
  private changedNow(namespace: string): boolean {
    if (this.changedDue.has(namespace)) return false;
    const wait = (this.changedAt.get(namespace) ?? -Infinity) + CHANGED_EVERY_MS - performance.now();
    if (wait <= 0) return true;
    this.changedDue.add(namespace);
    setTimeout(() => {
      this.changedDue.delete(namespace);
      void this.push(namespace, ['audit']);
    }, wait);
    return false;
  }

  private async pushNow(namespace: string | null, changes: Change[], refresh?: RefreshAsk) {
    if (refresh && namespace !== null) {
      for (const c of this.connections) if (c.role === 'page' && c.namespace === namespace) c.port.postMessage({ v: 1, op: 'refresh', ...refresh });
      if (changes.length === 0) return;
    }
    const namespaces = new Set<string>();
    for (const c of this.connections) {
      if (c.role === 'page' && (namespace === null || c.namespace === namespace)) namespaces.add(c.namespace);
    }
    for (const ns of namespaces) {
      const [view, changed, status] = await Promise.all([
        changes.includes('values') ? this.vault.reads.placeholders(ns) : null,
        changes.includes('audit') && this.changedNow(ns) ? this.vault.reads.changed(ns) : null,
        this.vault.reads.status(ns),
      ]);
      if (changed) this.changedAt.set(ns, performance.now());
      for (const c of this.connections) {
        if (c.role !== 'page' || c.namespace !== ns) continue;
        if (view) c.port.postMessage({ v: 1, op: 'placeholders', ...view });
        if (changed) c.port.postMessage({ v: 1, op: 'changed', ...changed });
        const key = statusKey(status);
        if (key !== c.seen) {
          c.seen = key;
          c.port.postMessage({ v: 1, op: 'status', status });
        }
      }
    }
  }
}

/** A forward's scrubbed body, made for the reply: moved, not copied (32 MiB would hold the thread). */
function bodyBuffer(reply: object): ArrayBuffer[] {
  const { body } = reply as { body?: unknown };
  return body instanceof Uint8Array && body.buffer instanceof ArrayBuffer && body.byteLength > 64 * 1024 ? [body.buffer] : [];
}

/** The buffers of a reply's scrubbed bytes (`texts`, `chunk`), each once. */
function replyBuffers(reply: object): ArrayBuffer[] {
  const { texts, chunk } = reply as { texts?: unknown; chunk?: unknown };
  const big = (t: unknown): t is Uint8Array<ArrayBuffer> => t instanceof Uint8Array && t.buffer instanceof ArrayBuffer && t.byteLength > 64 * 1024;
  if (!Array.isArray(texts)) return big(chunk) ? [chunk.buffer] : [];
  const buffers = new Set<ArrayBuffer>();
  for (const t of [...texts, chunk]) if (big(t)) buffers.add(t.buffer);
  return [...buffers];
}
