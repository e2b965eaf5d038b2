// The demo's one link to the vault: it embeds nothing itself, but owns the MessagePorts a hello
// returned, numbers the requests, matches the replies and hands the events out. Everything it
// sends or reads is typed by the contract; it never imports the vault's modules.
import type { AgentOp, AgentReply, ErrorBody, ErrorReply, Op, OpReply, PageMessage, Refused, Role, VaultEvent, Welcome } from '../src/contract.ts';

/** An error reply of the vault, as a rejection: `code` and the vault's own message. */
export class VaultError extends Error {
  readonly code: string;
  constructor(body: ErrorBody) {
    super(body.message);
    this.code = body.code;
  }
  override toString() {
    return `${this.code}: ${this.message}`;
  }
}

type Fields<U, O> = U extends { op: infer P } ? (O extends P ? Omit<U, 'op'> : never) : never;
type ReplyOf<U, O> = U extends { op: infer P } ? (O extends P ? U : never) : never;

/** Says hello over `frame` as `role` and resolves with the port's first answer. */
export function hello(frame: HTMLIFrameElement, vaultOrigin: string, role: Role): { port: MessagePort; first: Promise<Welcome | Refused> } {
  const channel = new MessageChannel();
  const first = new Promise<Welcome | Refused>((resolve) => {
    channel.port1.onmessage = ({ data }: MessageEvent<Welcome | Refused>) => resolve(data);
  });
  frame.contentWindow!.postMessage({ type: 'slicc-vault', v: 1, op: 'hello', role }, vaultOrigin, [channel.port2]);
  return { port: channel.port1, first };
}

class Port {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (m: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Set<(event: VaultEvent) => void>();

  constructor(
    readonly port: MessagePort,
    readonly welcome: Welcome,
  ) {
    port.onmessage = ({ data }: MessageEvent<PageMessage>) => {
      if ('id' in data && typeof data.id === 'number') {
        const waiter = this.waiting.get(data.id);
        this.waiting.delete(data.id);
        if ('error' in data && data.error) waiter?.reject(new VaultError((data as ErrorReply).error));
        else waiter?.resolve(data);
      } else if (data.op === 'placeholders' || data.op === 'changed' || data.op === 'status' || data.op === 'refresh') {
        for (const listener of this.listeners) listener(data);
      }
    };
  }

  protected send(op: string, fields: object, transfer: Transferable[]): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ v: 1, id, op, ...fields }, transfer);
    });
  }

  /** Calls `listener` with every event the vault pushes on this port; returns the way to stop. */
  onEvent(listener: (event: VaultEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close() {
    this.port.close();
    for (const { reject } of this.waiting.values()) reject(new Error('port closed'));
    this.waiting.clear();
  }
}

/** A `page` port: bios's and spectrum's ops, and the events. */
export class PagePort extends Port {
  request<O extends Op['op']>(op: O, fields: Fields<Op, O>, transfer: Transferable[] = []): Promise<ReplyOf<OpReply, O>> {
    return this.send(op, fields, transfer) as Promise<ReplyOf<OpReply, O>>;
  }
}

/** An `agent` port: the agent worker's ops; it never gets events. */
export class AgentPort extends Port {
  request<O extends AgentOp['op']>(op: O, fields: Fields<AgentOp, O>): Promise<ReplyOf<AgentReply, O>> {
    return this.send(op, fields, []) as Promise<ReplyOf<AgentReply, O>>;
  }
}

/** Opens a port of `role` over the vault frame; rejects with the refusal when there is one. */
export async function open<R extends Role>(frame: HTMLIFrameElement, vaultOrigin: string, role: R): Promise<R extends 'agent' ? AgentPort : PagePort> {
  const { port, first } = hello(frame, vaultOrigin, role);
  const answer = await first;
  if (answer.op === 'refused') throw new VaultError(answer.error);
  return (role === 'agent' ? new AgentPort(port, answer) : new PagePort(port, answer)) as R extends 'agent' ? AgentPort : PagePort;
}

/** The message of anything thrown, with the vault's code, for the developer's panels (`EACCES: …`). */
export const explain = (error: unknown) => (error instanceof VaultError ? error.toString() : error instanceof Error ? error.message : String(error));

/** The message of anything thrown in plain words, for the person's panels: a sentence, no code. */
export function plain(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The vault's code of an error (`EACCES`), for a tooltip where a developer looks; '' for others. */
export const codeOf = (error: unknown) => (error instanceof VaultError ? error.code : '');
