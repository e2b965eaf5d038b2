// Talking to a real vault frame from a test: embed it cross-origin (directly, or through an
// embedder page on another origin), say hello, send requests, collect replies and events.
import type { PageMessage, Role, VaultEvent, Welcome, Refused } from '../../src/contract.ts';
import { origins } from './origins.ts';

/** Every message that crossed any port in this test file, for the canary checks. */
export const crossed: unknown[] = [];
const cleanup: (() => void)[] = [];

afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
});

export function wait(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function waitFor<T>(target: EventTarget, type: string, accept: (event: Event) => T | undefined, ms = 15000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      target.removeEventListener(type, listener);
      reject(new Error(`no ${type} within ${ms} ms`));
    }, ms);
    const listener = (event: Event) => {
      const value = accept(event);
      if (value === undefined) return;
      clearTimeout(timer);
      target.removeEventListener(type, listener);
      resolve(value);
    };
    target.addEventListener(type, listener);
  });
}

export function addFrame(src: string, parent: Node = document.body, allow?: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  if (allow) frame.allow = allow;
  frame.src = src;
  parent.appendChild(frame);
  cleanup.push(() => frame.remove());
  return frame;
}

export const loaded = (frame: HTMLIFrameElement) => waitFor(frame, 'load', () => true);

/** Empties the vault's database (through a page on the vault origin), so a test starts anew. */
export async function resetVault(): Promise<void> {
  const frame = addFrame(`${origins.vault}/test/fixtures/reset.html`);
  await waitFor(window, 'message', (e) => ((e as MessageEvent).source === frame.contentWindow ? true : undefined));
  frame.remove();
}

let nextId = 1;

export class VaultClient {
  readonly events: VaultEvent[] = [];
  /** Every reply, in the order it arrived. */
  readonly replies: any[] = [];
  readonly first: Promise<Welcome | Refused>;
  private readonly waiting = new Map<number, (reply: any) => void>();
  private readonly eventWaiters: ((event: VaultEvent) => void)[] = [];

  constructor(
    readonly port: MessagePort,
    readonly frame?: HTMLIFrameElement,
  ) {
    let resolveFirst!: (m: Welcome | Refused) => void;
    this.first = new Promise((resolve) => (resolveFirst = resolve));
    let gotFirst = false;
    port.onmessage = ({ data }: MessageEvent<PageMessage>) => {
      crossed.push(data);
      if (!gotFirst) {
        gotFirst = true;
        resolveFirst(data as Welcome | Refused);
      } else if ('id' in data && typeof data.id === 'number') {
        this.replies.push(data);
        this.waiting.get(data.id)?.(data);
        this.waiting.delete(data.id);
      } else {
        this.events.push(data as VaultEvent);
        for (const waiter of this.eventWaiters.splice(0)) waiter(data as VaultEvent);
      }
    };
    cleanup.push(() => port.close());
  }

  /** Sends `{ v: 1, id, op, ...fields }` and resolves with the reply (an error reply too). */
  request(op: string, fields: Record<string, unknown> = {}, transfer: Transferable[] = []): Promise<any> {
    const id = nextId++;
    return this.send({ v: 1, id, op, ...fields }, id, transfer);
  }

  /** Sends any message; resolves with the reply of `id`. */
  send(message: unknown, id: number, transfer: Transferable[] = []): Promise<any> {
    const reply = new Promise((resolve) => this.waiting.set(id, resolve));
    this.port.postMessage(message, transfer);
    return reply;
  }

  /** Resolves with the next event of that op (already received ones after `since` count). */
  nextEvent(op: VaultEvent['op'], since = 0, ms = 5000): Promise<VaultEvent> {
    return this.until((e) => e.op === op, since, ms, `no ${op} event`);
  }

  /** Resolves with the first event (after `since`) that `accept` accepts. */
  until(accept: (event: any) => boolean, since = 0, ms = 5000, what = 'no such event'): Promise<any> {
    const found = this.events.slice(since).find(accept);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
      const waiter = (event: VaultEvent) => {
        if (accept(event)) {
          clearTimeout(timer);
          resolve(event);
        } else this.eventWaiters.push(waiter);
      };
      this.eventWaiters.push(waiter);
    });
  }
}

export interface ConnectOptions {
  /** Say hello from a page on this origin instead of the test page itself. */
  embedder?: string;
  role?: Role | string;
  v?: number;
  /** The vault document to embed (default `/`, index.html). */
  path?: string;
  /** The vault's origin (default `origins.vault`). */
  vault?: string;
  /** Say hello to this vault frame (as bios hands its page and agent ports out of one frame). */
  frame?: HTMLIFrameElement;
}

/** Embeds the vault and says hello; resolves once the frame answered (or after `ms` without). */
export async function connect(options: ConnectOptions = {}): Promise<VaultClient> {
  const { embedder, role = 'page', v = 1, path = '/', vault = origins.vault } = options;
  if (embedder) {
    const query = new URLSearchParams({ vault: origins.vault, role, v: String(v) });
    const page = addFrame(`${embedder}/test/fixtures/embedder.html?${query}`);
    const port = await waitFor(window, 'message', (e) => {
      const m = e as MessageEvent;
      return m.source === page.contentWindow && m.data?.type === 'embedder-port' ? m.ports[0] : undefined;
    });
    return new VaultClient(port, page);
  }
  const frame = options.frame ?? addFrame(`${vault}${path}`);
  if (!options.frame) await loaded(frame);
  const channel = new MessageChannel();
  frame.contentWindow!.postMessage({ type: 'slicc-vault', v, op: 'hello', role }, vault, [channel.port2]);
  return new VaultClient(channel.port1, frame);
}

/** Resolves with the first message, or `null` when none comes within `ms`. */
export function answered(client: VaultClient, ms = 1500) {
  return Promise.race([client.first, wait(ms).then(() => null)]);
}

/** Moves the clock of a frame embedded from `/test/fixtures/clock-frame.html` forward. */
export async function advanceClock(frame: HTMLIFrameElement, ms: number): Promise<void> {
  const moved = waitFor(window, 'message', (e) =>
    (e as MessageEvent).source === frame.contentWindow && (e as MessageEvent).data?.type === 'test-clock' ? true : undefined,
  );
  frame.contentWindow!.postMessage({ type: 'test-clock', advance: ms }, origins.vault);
  await moved;
}

export async function welcomed(options: ConnectOptions = {}): Promise<VaultClient> {
  const client = await connect(options);
  const first = await answered(client, 10000);
  if (first?.op !== 'welcome') throw new Error(`expected a welcome, got ${JSON.stringify(first)}`);
  return client;
}

// ── Canaries ───────────────────────────────────────────────────────────────────────────

/** Values tests seal so that leak checks can look for them. */
export const canaries: string[] = [];

export function canary(label = 'v'): string {
  const value = `canary-${label}-${crypto.randomUUID()}`;
  canaries.push(value);
  return value;
}

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** Every form a leak check looks for: raw, base64, hex and URL-encoded. */
export function leakForms(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  return [value, base64(bytes), hex(bytes), encodeURIComponent(value)];
}

/** Every canary form found in `things` (JSON of each, bytes decoded), as `form in thing` lines. */
export function findCanaries(things: unknown[]): string[] {
  const found: string[] = [];
  const text = things.map((t) => JSON.stringify(t, (_k, v) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : v))).join('\n');
  for (const value of canaries) for (const form of leakForms(value)) if (text.includes(form)) found.push(form);
  return found;
}

/** A canary shaped as a name (a letter, then letters, digits or _), for fields that take names only. */
export function canaryName(label = 'v'): string {
  const value = `canary_${label}_${crypto.randomUUID().replaceAll('-', '')}`;
  canaries.push(value);
  return value;
}

/**
 * The namespace's audit as the page reads it: the first page, from the document's memory, and
 * every entry read back from the store (an `audit` page before any seq).
 */
export async function auditAsRead(page: VaultClient): Promise<{ memory: any[]; stored: any[] }> {
  const memory = await page.request('audit', { limit: 100 });
  const stored = await page.request('audit', { before: Number.MAX_SAFE_INTEGER, limit: 1000 });
  if (memory.op !== 'audit' || stored.op !== 'audit') throw new Error(`audit answered ${JSON.stringify([memory, stored])}`);
  return { memory: memory.audit, stored: stored.audit };
}

/**
 * The newest audit entry of that type, read from memory and from the store, after checking that
 * neither read holds `value` in any form (leakForms).
 */
export async function auditedWithout(page: VaultClient, type: string, value: string): Promise<any> {
  const { memory, stored } = await auditAsRead(page);
  for (const [where, audit] of [
    ['memory', memory],
    ['the store', stored],
  ] as const) {
    const text = JSON.stringify(audit);
    for (const form of leakForms(value)) if (text.includes(form)) throw new Error(`the audit in ${where} holds a value (${type})`);
  }
  const [fromMemory, fromStore] = [memory, stored].map((audit) => audit.find((e: { type: string }) => e.type === type));
  if (!fromMemory) throw new Error(`no ${type} entry in ${JSON.stringify(memory)}`);
  const canonical = (e: unknown) =>
    JSON.stringify(e, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v));
  if (canonical(fromStore) !== canonical(fromMemory)) throw new Error(`the store holds ${canonical(fromStore)}, memory ${canonical(fromMemory)}`);
  return fromMemory;
}
