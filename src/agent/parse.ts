// The agent's requests (README, The agent's ops), parsed once at the boundary: each op's fields
// become a typed command, or EACCES for an op outside the role, ENOTSUP for a reserved one, EINVAL
// for a wrong field. The op and field names the agent sent never go back into a message.
import type { AgentOp } from '../contract.ts';
import { VaultError, einval } from '../errors.ts';
import { type Registered, checkRegistration } from '../inject/index.ts';
import {
  MAX_PROVIDER,
  MAX_REGISTERED_URL_BYTES,
  MAX_TOKEN,
  MAX_SCOPE,
  MAX_SCOPES,
  boundedString,
  checkPushSize,
  checkRedactBytes,
  checkRedactCount,
} from '../limits.ts';
import { STREAM_ID, checkAnyName, checkOptionalString, isDense } from '../validate.ts';

/** The agent's ops as the contract has them, but `endpoints`, whose registrations come checked. */
export type AgentCommand = Exclude<AgentOp, { op: 'endpoints' }> | { op: 'endpoints'; added: Registered };

type Fields = Record<string, unknown>;
/** An op's fields (any other is EINVAL) and its parser: the shape of every parser table (gateway/commands.ts too). */
export interface OpParser<C> {
  fields: readonly string[];
  parse(fields: Fields, ports: readonly MessagePort[]): C;
  /** The op is the person acting (README, Key store and lock: auto-lock starts its idle time again). */
  person?: true;
}

/** A stream id as the agent gave it, if it is one; the id itself never goes into the error. */
export function streamId(id: unknown): string {
  if (typeof id !== 'string' || !STREAM_ID.test(id)) throw einval('stream must be an id of 1 to 64 characters of A-Z a-z 0-9 . _ : -');
  return id;
}

const isText = (t: unknown): t is string | Uint8Array => typeof t === 'string' || t instanceof Uint8Array;
const stream = <O extends 'redactStream' | 'idle' | 'end' | 'drop'>(op: O): OpParser<AgentCommand> => ({
  fields: ['stream'],
  parse: (fields) => ({ op, stream: streamId(fields.stream) }) as AgentCommand,
});

/** Each agent op: its fields and its parser. */
/** One parser per op of the contract's agent role: a missing or unknown op fails `tsc`. */
export type OpTable<Ops extends { op: string }, C> = { readonly [O in Ops['op']]: OpParser<C> };

export const AGENT_PARSERS: OpTable<AgentOp, AgentCommand> = {
  redact: {
    fields: ['texts'],
    parse: ({ texts }) => {
      const wrong = () => einval('texts must be a list of strings and Uint8Arrays');
      if (!Array.isArray(texts)) throw wrong();
      checkRedactCount(texts);
      if (!isDense(texts) || !texts.every(isText)) throw wrong();
      checkRedactBytes(texts);
      return { op: 'redact', texts };
    },
  },
  redactStream: stream('redactStream'),
  push: {
    fields: ['stream', 'chunk'],
    parse: (fields) => {
      if (!(fields.chunk instanceof Uint8Array)) throw einval('chunk must be a Uint8Array');
      checkPushSize(fields.chunk);
      return { op: 'push', stream: streamId(fields.stream), chunk: fields.chunk };
    },
  },
  idle: stream('idle'),
  end: stream('end'),
  drop: stream('drop'),
  endpoints: { fields: ['model', 'mcp'], parse: ({ model, mcp }) => ({ op: 'endpoints', added: checkRegistration(model, mcp) }) },
  records: { fields: [], parse: () => ({ op: 'records' }) },
  model: { fields: ['provider'], parse: ({ provider }) => ({ op: 'model', provider: boundedString('provider', provider, MAX_PROVIDER)! }) },
  mcp: { fields: ['server'], parse: ({ server }) => ({ op: 'mcp', server: boundedString('server', server, MAX_REGISTERED_URL_BYTES)! }) },
  grant: {
    fields: ['provider', 'scopes', 'account', 'request'],
    parse: (fields) => {
      if (fields.request !== undefined) return { op: 'grant', request: requestId(fields, ['provider', 'scopes', 'account']) };
      return {
        op: 'grant',
        provider: boundedString('provider', fields.provider, MAX_PROVIDER)!,
        ...(fields.scopes !== undefined && { scopes: scopes(fields.scopes) }),
        ...(fields.account !== undefined && { account: checkOptionalString('account', fields.account) }),
      };
    },
  },
  refresh: {
    fields: ['name', 'request'],
    parse: (fields) => {
      if (fields.request !== undefined) return { op: 'refresh', request: requestId(fields, ['name']) };
      return { op: 'refresh', name: checkAnyName(fields.name) };
    },
  },
};
export const AGENT_OPS: readonly string[] = Object.keys(AGENT_PARSERS);

/** A request id the agent reads back; the other fields of the op may not come with it. */
function requestId(fields: Fields, others: string[]): string {
  if (others.some((field) => fields[field] !== undefined)) throw einval(`request comes alone: the state of a request asked for before`);
  return boundedString('request', fields.request, MAX_TOKEN)!;
}

/** A sign-in's scopes: at most 32, each 1 to 128 characters. */
function scopes(value: unknown): string[] {
  const wrong = () => einval(`scopes must be a list of at most ${MAX_SCOPES} strings of 1 to ${MAX_SCOPE} characters`);
  if (!Array.isArray(value) || value.length > MAX_SCOPES || !isDense(value)) throw wrong();
  if (!value.every((s) => typeof s === 'string' && s.length >= 1 && s.length <= MAX_SCOPE)) throw wrong();
  return [...value];
}

/**
 * An agent request's command: EACCES for an op outside the role, EINVAL for a wrong field. The op
 * and field names the agent sent never go back into a message.
 */
export function parseAgentCommand(op: string, fields: Fields): AgentCommand {
  const parser = Object.hasOwn(AGENT_PARSERS, op) ? AGENT_PARSERS[op as AgentOp['op']] : undefined;
  if (!parser) throw new VaultError('EACCES', 'that op is not an op of the agent role');
  for (const field in fields) if (!parser.fields.includes(field)) throw einval(`${op} takes only ${parser.fields.join(', ')}`);
  return parser.parse(fields, []);
}
