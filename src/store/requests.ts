// Requests a kernel program makes through /dev/sealed (README, /dev/sealed): a value for the person
// to enter, a sign-in, or a seal from another device. They live in IndexedDB, so they survive a
// reload, and expire a fixed time (config.json's requestLifetimeMs, 300 s) after they are made.
import type { PendingRequest, RequestStateName, RequestStatus } from '../contract.ts';
import { VaultError, enoent } from '../errors.ts';
import { MAX_ENDED_REQUESTS, MAX_PENDING_REQUESTS, REFRESH_EVERY_MS, tooManyPending } from '../limits.ts';
import { type Delta, bump, revOf } from './meta.ts';
import type { StoredRequest, VaultDb } from './schema.ts';

export type NewRequest = Pick<StoredRequest, 'kind' | 'name' | 'provider' | 'prompt' | 'oauth' | 'uid' | 'tag' | 'agent' | 'scopes' | 'account'>;

/** Requests' order everywhere: oldest first, ties by id. */
export const oldestFirst = (a: StoredRequest, b: StoredRequest) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);

/** The state a request has at `now`. */
export function stateAt(request: StoredRequest, now: number): RequestStateName {
  return request.state === 'pending' && now >= request.expiresAt ? 'expired' : request.state;
}

export function statusOf(r: StoredRequest, now: number): RequestStatus {
  return {
    id: r.id,
    kind: r.kind,
    ...(r.name !== undefined && { name: r.name }),
    ...(r.provider !== undefined && { provider: r.provider }),
    state: stateAt(r, now),
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    ...(r.placeholder !== undefined && { placeholder: r.placeholder }),
  };
}

export function pendingOf(r: StoredRequest): PendingRequest {
  return {
    id: r.id,
    kind: r.kind,
    ...(r.name !== undefined && { name: r.name }),
    ...(r.provider !== undefined && { provider: r.provider }),
    ...(r.prompt !== undefined && { prompt: r.prompt }),
    ...(r.uid !== undefined && { uid: r.uid }),
    ...(r.tag !== undefined && { tag: r.tag }),
    ...(r.agent !== undefined && { agent: true as const }),
    ...(r.scopes !== undefined && { scopes: r.scopes }),
    ...(r.account !== undefined && { account: r.account }),
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
  };
}

/**
 * Keeps the newest ended requests of a namespace (README, Limits): older ones beyond the limit
 * are deleted, in the transaction that ended or added one. `all` is the namespace's requests.
 */
async function trimEnded(store: { delete(id: string): Promise<void> }, all: StoredRequest[], now: number): Promise<string[]> {
  const ended = all.filter((r) => stateAt(r, now) !== 'pending');
  if (ended.length <= MAX_ENDED_REQUESTS) return [];
  ended.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  const old = ended.slice(MAX_ENDED_REQUESTS).map((r) => r.id);
  for (const id of old) await store.delete(id);
  return old;
}

export class Requests {
  constructor(
    private readonly db: VaultDb,
    private readonly lifetimeMs: number,
    private readonly now: () => number,
  ) {}

  /**
   * Makes a request; a uid with a pending one in the namespace gets EAGAIN. One transaction.
   * `ask` says whether the page is to be told of it now: when it is new, or when it is a pending
   * `refresh` last told of REFRESH_EVERY_MS ago or more (its `askedAt` moves to now in this same
   * transaction, so of every document asking at once exactly one is answered yes).
   */
  async make(namespace: string, fields: NewRequest): Promise<{ request: StoredRequest; delta: Delta | null; ask: boolean }> {
    const now = this.now();
    const tx = this.db.transaction(['requests', 'namespaces'], 'readwrite');
    const mine = await tx.objectStore('requests').index('byNamespace').getAll(namespace);
    const pending = mine.filter((r) => stateAt(r, now) === 'pending');
    // A refresh of a record that has one pending answers that same request, whoever asks.
    const again =
      fields.kind === 'refresh'
        ? pending.find((r) => r.kind === 'refresh' && r.name === fields.name)
        : fields.agent === undefined && fields.uid === undefined
          ? // The page's backup or restore: one at a time per kind, so asking again answers the same one.
            pending.find((r) => r.uid === undefined && r.agent === undefined && r.kind === fields.kind)
          : undefined;
    if (again) {
      const ask = again.kind === 'refresh' && now - (again.askedAt ?? again.createdAt) >= REFRESH_EVERY_MS;
      // Only the documents' own throttle reads `askedAt`, here: no revision moves, no document is told.
      if (ask) await tx.objectStore('requests').put({ ...again, askedAt: now });
      await tx.done;
      return { request: again, delta: null, ask };
    }
    if (fields.agent !== undefined && fields.kind === 'oauth' && pending.some((r) => r.agent === fields.agent && r.kind === 'oauth')) {
      tx.abort();
      await tx.done.catch(() => {});
      throw new VaultError('EAGAIN', 'this agent port already has a sign-in pending; read it with request, or wait for it to end');
    }
    if (fields.uid !== undefined && pending.some((r) => r.uid === fields.uid)) {
      tx.abort();
      await tx.done.catch(() => {});
      throw new VaultError('EAGAIN', `uid ${fields.uid} already has a pending request; wait for it or cancel it`);
    }
    if (mine.filter((r) => stateAt(r, now) === 'pending').length >= MAX_PENDING_REQUESTS) {
      tx.abort();
      await tx.done.catch(() => {});
      throw tooManyPending();
    }
    const request: StoredRequest = {
      id: crypto.randomUUID(),
      namespace,
      ...fields,
      createdAt: now,
      expiresAt: now + this.lifetimeMs,
      state: 'pending',
      ...(fields.kind === 'refresh' && { askedAt: now }),
    };
    for (const key of Object.keys(request) as (keyof StoredRequest)[]) if (request[key] === undefined) delete request[key];
    await tx.objectStore('requests').add(request);
    const dropped = await trimEnded(tx.objectStore('requests'), mine, now);
    const meta = await bump(tx, namespace);
    await tx.done;
    return { request, delta: { namespace, rev: revOf(meta), meta, requests: [request], dropped }, ask: true };
  }

  /** The namespace's request of that id, or ENOENT (also for another namespace's). */
  async get(namespace: string, id: unknown): Promise<StoredRequest> {
    const request = typeof id === 'string' ? await this.db.get('requests', id) : undefined;
    if (!request || request.namespace !== namespace) throw enoent('there is no request with that id');
    return request;
  }

  async all(namespace: string): Promise<StoredRequest[]> {
    const all = await this.db.getAllFromIndex('requests', 'byNamespace', namespace);
    return all.sort(oldestFirst);
  }

  /** The namespace's pending requests, oldest first. */
  async pending(namespace: string): Promise<StoredRequest[]> {
    const now = this.now();
    return (await this.all(namespace)).filter((r) => stateAt(r, now) === 'pending');
  }

  /**
   * Ends a pending request (`done` with the placeholder that answered it, or `cancelled`); a
   * request that is no longer pending stays as it is. Answers its state afterwards.
   */
  async end(id: string, state: 'done' | 'cancelled', placeholder?: string): Promise<{ state: RequestStateName; delta: Delta | null }> {
    const tx = this.db.transaction(['requests', 'namespaces'], 'readwrite');
    const request = await tx.objectStore('requests').get(id);
    if (!request) {
      await tx.done;
      throw enoent('there is no request with that id');
    }
    let delta: Delta | null = null;
    if (stateAt(request, this.now()) === 'pending') {
      request.state = state;
      if (placeholder) request.placeholder = placeholder;
      await tx.objectStore('requests').put(request);
      const all = await tx.objectStore('requests').index('byNamespace').getAll(request.namespace);
      const dropped = await trimEnded(tx.objectStore('requests'), all, this.now());
      const meta = await bump(tx, request.namespace);
      delta = { namespace: request.namespace, rev: revOf(meta), meta, requests: [request], dropped };
    }
    await tx.done;
    return { state: stateAt(request, this.now()), delta };
  }

  /** Deletes requests that expired `keepMs` ago or more (answered, cancelled or not): they are history. */
  async purge(keepMs: number): Promise<string[]> {
    const tx = this.db.transaction(['requests', 'namespaces'], 'readwrite');
    const before = this.now() - keepMs;
    const changed = new Set<string>();
    for await (const cursor of tx.objectStore('requests')) {
      if (cursor.value.expiresAt > before) continue;
      changed.add(cursor.value.namespace);
      await cursor.delete();
    }
    for (const namespace of changed) await bump(tx, namespace);
    await tx.done;
    return [...changed];
  }
}
