// The gateway: answers the embedder's hello, owns the ports, checks roles, answers each port in
// order (FIFO) and pushes events to page ports. The work itself is the vault's (vault.ts).
import type { EmbedderList, ErrorBody, Role, VaultStatus } from './contract.ts';
import { VaultError, einval, errorBody } from './errors.ts';
import { AgentSession } from './agent.ts';
import { forward } from './forward.ts';
import { answerSealed, parseStamp } from './sealed.ts';
import { originAllowed } from './settings.ts';
import type { Change, Vault } from './vault.ts';
import { MAX_QUEUED_BYTES, MAX_QUEUED_REQUESTS, queueFull, queuedSize } from './limits.ts';

/** The agent role's ops and their fields; everything else is EACCES on an agent port. */
const AGENT_FIELDS: Record<string, readonly string[]> = {
  redact: ['texts'],
  redactStream: ['stream'],
  push: ['stream', 'chunk'],
  idle: ['stream'],
  end: ['stream'],
  drop: ['stream'],
  endpoints: ['model', 'mcp'],
};
const AGENT_RESERVED = ['model', 'mcp', 'records', 'grant', 'refresh'];
export const AGENT_OPS = [...Object.keys(AGENT_FIELDS), ...AGENT_RESERVED];

/** Each page op's fields; any other field is EINVAL. */
const PAGE_FIELDS: Record<string, readonly string[]> = {
  status: [],
  placeholders: [],
  list: [],
  audit: ['before', 'limit'],
  put: ['name', 'value', 'kind', 'provider', 'account', 'expiresAt', 'request'],
  seal: ['name', 'value', 'source', 'kind', 'provider', 'account', 'expiresAt'],
  remove: ['name'],
  restore: ['name'],
  cancel: ['request'],
  lock: [],
  dismissBackupReminder: [],
  unregister: ['model', 'mcp'],
  export: [],
  import: [],
  sealed: ['req', 'stamp'],
  policy: ['files'],
  forward: ['head', 'body', 'owner', 'exit', 'rawTraits'],
};

const NOT_BUILT: Record<string, string> = {};

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
    vault.onChange((namespace, changes) => this.push(namespace, changes));
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
    await this.vault.serve(namespace);
    const status = await this.vault.status(namespace);
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
      connection.tail = connection.tail.then(() => connection.port.postMessage({ v: 1, id, error: queueFull().body }));
      return;
    }
    connection.waiting++;
    connection.waitingBytes += bytes;
    connection.tail = connection.tail.then(async () => {
      try {
        const reply = await this.answer(connection, data, ports);
        // An agent's scrubbed bytes are the vault's own: transferred, not copied (README, Limits).
        if (reply) connection.port.postMessage(reply, bounded ? replyBuffers(reply) : []);
      } finally {
        connection.waiting--;
        connection.waitingBytes -= bytes;
      }
    });
  }

  /** The reply to one request, or `null` for a message that isn't one (no readable id). */
  private async answer(connection: Connection, data: unknown, ports: readonly MessagePort[]): Promise<object | null> {
    if (!data || typeof data !== 'object') return null;
    const { v, id, op, ...fields } = data as Fields;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
    try {
      if (v !== 1) throw einval('v must be 1');
      if (typeof op !== 'string' || !op) throw einval('op must be a non-empty string');
      // Errors name the op and its fields, never an oversized one (README, Limits).
      if (op.length > 64) throw einval('op must be an op of this vault');
      const long = Object.keys(fields).find((field) => field.length > 64);
      if (long !== undefined) throw einval(`${op} has a field it doesn't know`);
      const result = connection.role === 'page' ? await this.page(connection.namespace, op, fields, ports) : await this.agent(connection.agent!, op, fields);
      return { v: 1, id, op, ...result };
    } catch (error) {
      if (!(error instanceof VaultError)) console.error(`slicc-vault: ${String(op)} failed (${(error as Error)?.name ?? 'error'})`);
      return { v: 1, id, error: errorBody(error) };
    }
  }

  private async page(namespace: string, op: string, fields: Fields, ports: readonly MessagePort[]): Promise<object> {
    const allowed = PAGE_FIELDS[op];
    if (!allowed || op in NOT_BUILT) throw new VaultError('ENOTSUP', NOT_BUILT[op] ?? `${op} is not an op of this vault`);
    const unknown = Object.keys(fields).find((field) => !allowed.includes(field));
    if (unknown) throw einval(`${op} has no field ${unknown}`);
    const vault = this.vault;
    switch (op) {
      case 'status':
        return { status: await vault.status(namespace) };
      case 'placeholders':
        return vault.placeholders(namespace);
      case 'list':
        return { list: await vault.list(namespace) };
      case 'audit':
        return vault.audit(namespace, fields.before, fields.limit);
      case 'put':
        return vault.put(namespace, fields);
      case 'seal':
        return vault.seal(namespace, fields);
      case 'remove':
        return vault.remove(namespace, fields.name);
      case 'restore':
        return vault.restore(namespace, fields.name);
      case 'cancel':
        return vault.cancel(namespace, fields.request);
      case 'sealed':
        return { reply: await answerSealed(vault, namespace, fields.req, parseStamp(fields.stamp)) };
      case 'lock':
        await vault.lock();
        return {};
      case 'dismissBackupReminder':
        return vault.dismissBackupReminder(namespace);
      case 'unregister':
        return vault.unregister(namespace, fields.model, fields.mcp);
      case 'export':
        return vault.askBackup(namespace, 'backup');
      case 'import':
        return vault.askBackup(namespace, 'restore');
      case 'policy':
        return vault.applyPolicy(namespace, fields.files);
      case 'forward':
        return forward(vault, namespace, fields, ports[0]);
    }
    throw new VaultError('ENOTSUP', `${op} is not an op of this vault`);
  }

  /** Every string of an agent-port reply or error is scrubbed by the session (README, The agent's ops). */
  private async agent(session: AgentSession, op: string, fields: Fields): Promise<object> {
    const allowed = AGENT_FIELDS[op];
    try {
      // The op and field names the agent sent never go back into a message.
      if (!AGENT_OPS.includes(op)) throw new VaultError('EACCES', 'that op is not an op of the agent role');
      if (!allowed) throw new VaultError('ENOTSUP', `${op} is not built yet`);
      if (Object.keys(fields).some((field) => !allowed.includes(field))) throw einval(`${op} takes only ${allowed.join(', ')}`);
    } catch (error) {
      throw await session.refuse(error);
    }
    return session.reply(op, fields);
  }

  /** Pushes events to this document's page ports of the namespace (all namespaces for `null`). */
  private async push(namespace: string | null, changes: Change[]) {
    const namespaces = new Set<string>();
    for (const c of this.connections) {
      if (c.role === 'page' && (namespace === null || c.namespace === namespace)) namespaces.add(c.namespace);
    }
    for (const ns of namespaces) {
      const [view, changed, status] = await Promise.all([
        changes.includes('values') ? this.vault.placeholders(ns) : null,
        changes.includes('audit') ? this.vault.changed(ns) : null,
        this.vault.status(ns),
      ]);
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

/** The buffers of a reply's scrubbed bytes (`texts`, `chunk`), each once. */
function replyBuffers(reply: object): ArrayBuffer[] {
  const { texts, chunk } = reply as { texts?: unknown; chunk?: unknown };
  const buffers = new Set<ArrayBuffer>();
  for (const t of [...(Array.isArray(texts) ? texts : []), chunk]) {
    if (t instanceof Uint8Array && t.buffer instanceof ArrayBuffer && t.byteLength > 64 * 1024) buffers.add(t.buffer);
  }
  return [...buffers];
}
