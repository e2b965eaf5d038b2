// The embedder's client (README, Embed it in your own page): the vault's frame, its hello and port,
// requests numbered and matched, events, `forward` with its response relayed through the vault, the
// agent's port for a worker, and the lock button with its panel. No dependencies and no vault code:
// everything it sends or reads is typed by the contract, so it runs in any page and any engine.
import type {
  AgentOp,
  AgentReply,
  Availability,
  ButtonAvailability,
  ButtonHello,
  ButtonPanel,
  ErrorBody,
  ErrorCode,
  ExitName,
  Op,
  OpReply,
  PanelClose,
  RawTraits,
  Refused,
  RequestHead,
  ResponsePart,
  Role,
  Stamp,
  VaultEvent,
  VaultStatus,
  Welcome,
} from '../contract.ts';

/** How long `connect` waits for the frame's load, then for its answer to the hello. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** The client's own codes beside the vault's: no answer in time, or a port this client closed. */
export type ClientErrorCode = ErrorCode | 'ETIMEDOUT' | 'ECLOSED';

/** An error reply of the vault (or the client's own), as a rejection: `code` and a message. */
export class VaultError extends Error {
  readonly code: ClientErrorCode;
  constructor(code: ClientErrorCode, message: string) {
    super(message);
    this.name = 'VaultError';
    this.code = code;
  }
  static of(body: ErrorBody) {
    return new VaultError(body.code, body.message);
  }
}

/** The fields of the op `O` of the union `U` (`{ op, ...fields }`), without `op`. */
export type FieldsOf<U, O> = U extends { op: infer P } ? (O extends P ? Omit<U, 'op'> : never) : never;
/** The reply to the op `O` of the union `U`. */
export type ReplyOf<U, O> = U extends { op: infer P } ? (O extends P ? U : never) : never;
/** The event named `O`. */
export type EventOf<O extends VaultEvent['op']> = Extract<VaultEvent, { op: O }>;

/** One port's requests, numbered and matched to their replies (each port is answered in order). */
class Requests {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: unknown) => void; reject: (error: Error) => void }>();

  constructor(readonly port: MessagePort) {}

  send(op: string, fields: object, transfer: Transferable[] = []): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ ...fields, v: 1, id, op }, transfer);
    });
  }

  /** Settles the request `data` answers; false for a message that answers none (an event). */
  answer(data: { id?: unknown; error?: ErrorBody }): boolean {
    if (typeof data.id !== 'number') return false;
    const waiter = this.waiting.get(data.id);
    this.waiting.delete(data.id);
    if (data.error) waiter?.reject(VaultError.of(data.error));
    else waiter?.resolve(data);
    return true;
  }

  close() {
    this.port.close();
    for (const { reject } of this.waiting.values()) reject(new VaultError('ECLOSED', 'The port to the vault was closed.'));
    this.waiting.clear();
  }
}

/** Waits for `promise`, or rejects with `ETIMEDOUT` and `message` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new VaultError('ETIMEDOUT', message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Says hello as `role` over `frame` and resolves with the port once welcomed. */
async function hello(frame: HTMLIFrameElement, vault: string, role: Role, ms: number): Promise<{ port: MessagePort; welcome: Welcome }> {
  const { port1: port, port2 } = new MessageChannel();
  const first = new Promise<Welcome | Refused>((resolve) => {
    port.onmessage = ({ data }: MessageEvent<Welcome | Refused>) => resolve(data);
  });
  frame.contentWindow?.postMessage({ type: 'slicc-vault', v: 1, op: 'hello', role }, vault, [port2]);
  const here = location.origin;
  const answer = await within(
    first,
    ms,
    `The vault at ${vault} didn't answer this page's hello within ${ms / 1000} s. It answers only the origins its embedders.json allows: is ${here} among them (with npm start: EMBEDDERS="${here}")?`,
  ).catch((error) => {
    port.close();
    throw error;
  });
  port.onmessage = null;
  if (answer.op === 'refused') {
    port.close();
    throw new VaultError(answer.error.code, `The vault refused this page's hello: ${answer.error.message}`);
  }
  return { port, welcome: answer };
}

export interface ConnectOptions {
  /** The vault's origin (`https://vault.sliccy.ai`). */
  vault: string;
  /** Where the vault's hidden frame goes (default: `document.body`). */
  parent?: Node;
  /** How long to wait for the frame's load, then for its welcome (default `CONNECT_TIMEOUT_MS`). */
  timeoutMs?: number;
}

/**
 * Embeds the vault's hidden frame, waits for its load and says hello as `page`. Rejects with
 * `ETIMEDOUT` naming the likely cause when the frame doesn't load or answer in time (most often:
 * this page's origin isn't in the vault's `embedders.json`), or with the vault's refusal.
 */
export async function connect({ vault, parent = document.body, timeoutMs = CONNECT_TIMEOUT_MS }: ConnectOptions): Promise<Vault> {
  const origin = new URL(vault).origin;
  const frame = document.createElement('iframe');
  frame.src = `${origin}/`;
  frame.hidden = true;
  frame.title = 'Vault frame';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  parent.appendChild(frame);
  try {
    await within(loaded, timeoutMs, `The vault's frame at ${origin}/ didn't load within ${timeoutMs / 1000} s: is the vault served there?`);
    const { port, welcome } = await hello(frame, origin, 'page', timeoutMs);
    return new Vault(origin, frame, port, welcome, timeoutMs);
  } catch (error) {
    frame.remove();
    throw error;
  }
}

/** What `forward` sends: bios's request head and body, the kernel's stamp of its owner, the exit. */
export interface ForwardRequest {
  head: RequestHead;
  /** The body, for model and MCP requests (a string is sent as its UTF-8 bytes). */
  body?: Uint8Array | string;
  /** The kernel's stamp of the process sending it: every field, `ppid` included. */
  owner: Stamp;
  exit: ExitName;
  /** What the exit does: `manualRedirects` (it doesn't follow redirects; then header values may go beyond `authorization`), `encodedBodies`. */
  rawTraits: RawTraits;
}

/** A forward the vault allowed: the head (and body) to send, and the way back for the response. */
export interface Forwarded {
  /** The head with the values filled in: send it, and keep it nowhere else. */
  head: RequestHead;
  /** The body to send instead of the one given, every value scrubbed out (always bytes). */
  body?: Uint8Array;
  /**
   * Streams the upstream's response through the vault and resolves with it scrubbed once its head is
   * back: each value as its placeholder, each encoded form as `[redacted:NAME]`.
   */
  relay(response: Response): Promise<Response>;
  /** Tells the vault no response will come (the request failed or was never sent). */
  cancel(message?: string): void;
}

/** A forward the vault refused: `status` 403 (or 502 for an exit with encoded bodies) and why. */
export interface ForwardRefused {
  refused: { status: number; reason: string };
}

/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The response parts coming back on `port`, as a `Response` once its head is in. */
function scrubbedResponse(port: MessagePort): Promise<Response> {
  return new Promise((resolve, reject) => {
    let body!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        body = controller;
      },
      cancel: () => port.close(),
    });
    port.onmessage = ({ data }: MessageEvent<ResponsePart>) => {
      if (data.op === 'response') {
        const response = new Response(NULL_BODY.has(data.status) ? null : stream, {
          status: data.status,
          statusText: data.statusText,
          headers: data.headers,
        });
        Object.defineProperties(response, { url: { value: data.url }, redirected: { value: data.redirected === true } });
        resolve(response);
      } else if (data.op === 'body') {
        body.enqueue(data.chunk);
      } else {
        port.close();
        if (data.op === 'end') body.close();
        else {
          const error = new VaultError('EINVAL', data.message);
          body.error(error);
          reject(error);
        }
      }
    };
  });
}

/** Posts `response` on bios's end of the response channel, its body chunk by chunk. */
async function pump(port: MessagePort, response: Response, url: string) {
  const head: ResponsePart = {
    op: 'response',
    status: response.status,
    statusText: response.statusText,
    url: response.url || url,
    ...(response.redirected && { redirected: true }),
    headers: [...response.headers],
  };
  port.postMessage(head);
  try {
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) port.postMessage({ op: 'body', chunk: part.value });
    port.postMessage({ op: 'end' });
  } catch (error) {
    port.postMessage({ op: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}

/** A `page` port to the vault: bios's and spectrum's ops, and the events. */
export class Vault {
  private readonly requests: Requests;
  private readonly listeners = new Map<string, Set<(event: VaultEvent) => void>>();
  /** The namespace's status: the welcome's, then each `status` event's. */
  status: VaultStatus;

  constructor(
    /** The vault's origin. */
    readonly origin: string,
    /** The vault's hidden frame. */
    readonly frame: HTMLIFrameElement,
    port: MessagePort,
    readonly welcome: Welcome,
    private readonly timeoutMs = CONNECT_TIMEOUT_MS,
  ) {
    this.status = welcome.status;
    this.requests = new Requests(port);
    port.onmessage = ({ data }: MessageEvent) => {
      if (this.requests.answer(data)) return;
      const event = data as VaultEvent;
      if (event.op === 'status') this.status = event.status;
      for (const listener of this.listeners.get(event.op) ?? []) listener(event);
    };
  }

  /** Sends the op and resolves with its reply, or rejects with a `VaultError` carrying the vault's code. */
  request<O extends Op['op']>(
    op: O,
    ...[fields, transfer]: FieldsOf<Op, O> extends Record<string, never>
      ? [fields?: FieldsOf<Op, O>, transfer?: Transferable[]]
      : [fields: FieldsOf<Op, O>, transfer?: Transferable[]]
  ): Promise<ReplyOf<OpReply, O>> {
    return this.requests.send(op, fields ?? {}, transfer) as Promise<ReplyOf<OpReply, O>>;
  }

  /** Calls `listener` with every event `op` the vault pushes (`placeholders`, `changed`, `status`, `refresh`); returns the way to stop. */
  on<O extends VaultEvent['op']>(op: O, listener: (event: EventOf<O>) => void): () => void {
    const set = this.listeners.get(op) ?? new Set();
    this.listeners.set(op, set);
    const call = listener as (event: VaultEvent) => void;
    set.add(call);
    return () => set.delete(call);
  }

  /**
   * Asks the vault to fill `request`'s placeholders in. Allowed: the head (and body) to send, and
   * `relay(response)` to bring the upstream's response back scrubbed. Refused: `{ refused }`.
   */
  async forward(request: ForwardRequest): Promise<Forwarded | ForwardRefused> {
    const { port1: port, port2 } = new MessageChannel();
    let reply: ReplyOf<OpReply, 'forward'>;
    try {
      reply = await this.request('forward', request, [port2]);
    } catch (error) {
      port.close();
      throw error;
    }
    if ('refused' in reply) {
      port.close();
      return { refused: reply.refused };
    }
    const url = reply.head.url;
    return {
      head: reply.head,
      ...(reply.body && { body: reply.body }),
      relay: (response) => {
        const scrubbed = scrubbedResponse(port);
        void pump(port, response, url);
        return scrubbed;
      },
      cancel: (message = 'not sent') => {
        port.postMessage({ op: 'error', message });
        port.close();
      },
    };
  }

  /**
   * A port of role `agent` over the same frame, welcomed, for bios to hand its agent worker (transfer
   * it; the worker wraps it in `VaultAgent`). Agent ports get no events.
   */
  async agentPort(): Promise<MessagePort> {
    return (await hello(this.frame, this.origin, 'agent', this.timeoutMs)).port;
  }

  /** Closes the port (pending requests reject with `ECLOSED`) and removes the frame. */
  close() {
    this.requests.close();
    this.listeners.clear();
    this.frame.remove();
  }
}

/** The agent worker's end of an `agent` port: only the agent's ops; it gets no events. */
export class VaultAgent {
  private readonly requests: Requests;

  constructor(port: MessagePort) {
    this.requests = new Requests(port);
    port.onmessage = ({ data }: MessageEvent) => this.requests.answer(data);
  }

  /** Sends the agent op and resolves with its reply, or rejects with a `VaultError`. */
  request<O extends AgentOp['op']>(op: O, fields: FieldsOf<AgentOp, O>): Promise<ReplyOf<AgentReply, O>> {
    return this.requests.send(op, fields) as Promise<ReplyOf<AgentReply, O>>;
  }

  close() {
    this.requests.close();
  }
}

export interface ButtonOptions {
  /** The vault's origin. */
  vault: string;
  /** Where the button goes (default: `document.body`). */
  parent?: Node;
  theme?: 'light' | 'dark';
  scale?: 'medium' | 'large';
  /**
   * Show the person's screens in a panel this page frames (default), which works in every engine;
   * `false`: the button opens the popup of 1.3.0 (Chromium and Firefox only).
   */
  panel?: boolean;
  /** Where the panel goes (default: `document.body`); it is placed over the page's top right corner. */
  panelParent?: Node;
}

/** The panel's frame over the page, as a dialog would be: in the viewport, above the page. */
const PANEL_STYLE =
  'position:fixed;top:56px;right:16px;z-index:2147483647;width:min(420px,calc(100vw - 32px));height:min(640px,calc(100vh - 72px));border:1px solid #cacaca;border-radius:8px;background:#fff;box-shadow:0 4px 16px rgb(0 0 0 / 15%)';

/**
 * The vault's lock button in an iframe, told its hello after `load`. Its `availability` events
 * (`connecting`, `waiting`, `locked`, `ready`) are re-dispatched as `CustomEvent`s; with the panel,
 * a click shows `panel.html` in one iframe (`panel` event, `detail` `'shown'`) until it says close
 * (`'closed'`).
 */
export class VaultButton extends EventTarget {
  readonly frame: HTMLIFrameElement;
  /** The panel's frame while it is shown. */
  panel: HTMLIFrameElement | null = null;
  availability: Availability = 'connecting';
  private readonly origin: string;

  constructor({ vault, parent = document.body, theme = 'light', scale = 'medium', panel = true, panelParent = document.body }: ButtonOptions) {
    super();
    this.origin = new URL(vault).origin;
    this.frame = document.createElement('iframe');
    Object.assign(this.frame, { src: `${this.origin}/button.html`, title: 'Vault lock', width: '48', height: '48' });
    this.frame.style.border = '0';
    const hello: ButtonHello = { type: 'slicc-vault-button', v: 1, theme, scale, ...(panel && { panel: true }) };
    this.frame.addEventListener('load', () => this.frame.contentWindow?.postMessage(hello, this.origin));
    this.onMessage = (event) => this.heard(event, panelParent);
    addEventListener('message', this.onMessage);
    parent.appendChild(this.frame);
  }

  private readonly onMessage: (event: MessageEvent) => void;

  private heard(event: MessageEvent, panelParent: Node) {
    if (event.origin !== this.origin) return;
    if (this.panel && event.source === this.panel.contentWindow) {
      const data = event.data as Partial<PanelClose> | null;
      if (data?.type === 'slicc-vault-panel' && data.v === 1 && data.op === 'close') this.closePanel();
      return;
    }
    if (event.source !== this.frame.contentWindow) return;
    const data = event.data as Partial<ButtonAvailability & ButtonPanel> | null;
    if (data?.type !== 'slicc-vault-button' || data.v !== 1) return;
    if (data.op === 'panel') {
      if (typeof data.url === 'string' && new URL(data.url).origin === this.origin) this.showPanel(data.url, panelParent);
    } else if (data.availability) {
      this.availability = data.availability;
      this.dispatchEvent(new CustomEvent<Availability>('availability', { detail: data.availability }));
    }
  }

  private showPanel(url: string, parent: Node) {
    // One panel: a click while it is shown asks again, and the one shown stays.
    if (this.panel) return;
    this.panel = document.createElement('iframe');
    Object.assign(this.panel, { src: url, title: 'Vault' });
    this.panel.allow = 'publickey-credentials-create; publickey-credentials-get';
    this.panel.style.cssText = PANEL_STYLE;
    parent.appendChild(this.panel);
    this.dispatchEvent(new CustomEvent('panel', { detail: 'shown' }));
  }

  /** Removes the panel (what it had open is cancelled; nothing half-way is written). */
  closePanel() {
    if (!this.panel) return;
    this.panel.remove();
    this.panel = null;
    this.dispatchEvent(new CustomEvent('panel', { detail: 'closed' }));
  }

  /** Removes the button and its panel. */
  remove() {
    removeEventListener('message', this.onMessage);
    this.closePanel();
    this.frame.remove();
  }
}

/** Mounts the lock button (and, by default, its panel): see `VaultButton`. */
export const mountButton = (options: ButtonOptions) => new VaultButton(options);
