// Parse at the boundary (README, Embedding API): one parser per op turns a request's `unknown`
// fields into a typed command, or throws EINVAL naming the field that is wrong. Nothing below the
// parsers (vault.ts, the stores, the handlers) sees `unknown`. Pure, but for the transferred port.
import type { AgentOp, ErrorBody, SealFields, SealedRequest, Stamp } from '../contract.ts';
import { VaultError, einval, errorBody } from '../errors.ts';
import { type ForwardRequest, checkForward } from '../forward/forward.ts';
import { checkPushSize, checkRedactBytes, checkRedactCount } from '../limits.ts';
import type { RecordInput } from '../store/records.ts';
import { type Registered, checkRegistration, checkUnregister } from '../inject/registered.ts';
import { parseSealedRequest, parseStamp } from '../sealed/sealed.ts';
import { checkKind, checkName, checkOptionalString, checkOptionalTime, checkValue, isDense, STREAM_ID } from '../validate.ts';

/** An audit page asks for at most this many entries. */
export const MAX_AUDIT_LIMIT = 1000;
/** A `seal`'s source: a sign-in of a provider, or a seal from another device. */
export const SEAL_SOURCE = /^(oauth:[^\s:@]+|jerk:[^\s:@]+@[^\s@]+)$/;

export type PageCommand =
  | { op: 'status' }
  | { op: 'placeholders' }
  | { op: 'list' }
  | { op: 'audit'; before?: number; limit?: number }
  | { op: 'put'; input: RecordInput; request?: string }
  | { op: 'seal'; input: RecordInput & { source: SealFields['source'] } }
  | { op: 'remove'; name: string }
  | { op: 'restore'; name: string }
  | { op: 'cancel'; request: string }
  | { op: 'lock' }
  | { op: 'dismissBackupReminder' }
  | { op: 'unregister'; gone: { model: string[]; mcp: string[] } }
  | { op: 'export' }
  | { op: 'import' }
  /** `req` failed to parse: the `sealed` reply carries the error, the port gets none. */
  | { op: 'sealed'; req: SealedRequest | { error: ErrorBody }; stamp: Stamp }
  | { op: 'policy'; files: unknown[] }
  | { op: 'forward'; request: ForwardRequest; port: MessagePort };

/** The agent's ops as the contract has them, but `endpoints`, whose registrations come checked. */
export type AgentCommand = Exclude<AgentOp, { op: 'endpoints' }> | { op: 'endpoints'; added: Registered };

type Fields = Record<string, unknown>;
interface OpParser<C> {
  fields: readonly string[];
  parse(fields: Fields, ports: readonly MessagePort[]): C;
}

const name = (fields: Fields) => {
  if (typeof fields.name !== 'string') throw einval('name must be a string');
  return fields.name;
};

/** The fields a `put` and a `seal` share, checked. */
function recordInput(fields: Fields, source: RecordInput['source']): RecordInput {
  const kind = checkKind(fields.kind);
  return {
    name: checkName(fields.name, kind),
    value: checkValue(fields.value),
    kind,
    source,
    provider: checkOptionalString('provider', fields.provider),
    account: checkOptionalString('account', fields.account),
    expiresAt: checkOptionalTime('expiresAt', fields.expiresAt),
  };
}

const none = <C>(command: C): OpParser<C> => ({ fields: [], parse: () => command });

/** Each page op: its fields (any other is EINVAL) and its parser. */
export const PAGE_OPS: Record<string, OpParser<PageCommand>> = {
  status: none({ op: 'status' }),
  placeholders: none({ op: 'placeholders' }),
  list: none({ op: 'list' }),
  audit: {
    fields: ['before', 'limit'],
    parse: ({ before, limit }) => {
      if (before !== undefined && (!Number.isSafeInteger(before) || (before as number) < 1)) throw einval('before must be a seq: a positive integer');
      if (limit !== undefined && (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_AUDIT_LIMIT)) {
        throw einval(`limit must be an integer from 1 to ${MAX_AUDIT_LIMIT}`);
      }
      return { op: 'audit', before: before as number | undefined, limit: limit as number | undefined };
    },
  },
  put: {
    fields: ['name', 'value', 'kind', 'provider', 'account', 'expiresAt', 'request'],
    parse: (fields) => {
      const input = recordInput(fields, 'settings');
      if (fields.request !== undefined && (typeof fields.request !== 'string' || !fields.request)) throw einval('request must be a request id');
      return { op: 'put', input, ...(fields.request !== undefined && { request: fields.request as string }) };
    },
  },
  seal: {
    fields: ['name', 'value', 'source', 'kind', 'provider', 'account', 'expiresAt'],
    parse: (fields) => {
      if (fields.kind === undefined) throw einval('kind is required');
      checkKind(fields.kind);
      if (typeof fields.source !== 'string' || !SEAL_SOURCE.test(fields.source)) throw einval('source must be oauth:<provider> or jerk:<provider>@<device>');
      const source = fields.source as SealFields['source'];
      return { op: 'seal', input: { ...recordInput(fields, source), source } };
    },
  },
  remove: { fields: ['name'], parse: (fields) => ({ op: 'remove', name: name(fields) }) },
  restore: { fields: ['name'], parse: (fields) => ({ op: 'restore', name: name(fields) }) },
  cancel: {
    fields: ['request'],
    parse: ({ request }) => {
      if (typeof request !== 'string' || !request) throw einval('request must be a request id');
      return { op: 'cancel', request };
    },
  },
  lock: none({ op: 'lock' }),
  dismissBackupReminder: none({ op: 'dismissBackupReminder' }),
  unregister: { fields: ['model', 'mcp'], parse: ({ model, mcp }) => ({ op: 'unregister', gone: checkUnregister(model, mcp) }) },
  export: none({ op: 'export' }),
  import: none({ op: 'import' }),
  sealed: {
    fields: ['req', 'stamp'],
    parse: ({ req, stamp }) => {
      const checked = parseStamp(stamp);
      try {
        return { op: 'sealed', req: parseSealedRequest(req), stamp: checked };
      } catch (error) {
        return { op: 'sealed', req: { error: errorBody(error) }, stamp: checked };
      }
    },
  },
  policy: {
    fields: ['files'],
    parse: ({ files }) => {
      if (!Array.isArray(files) || files.length < 1 || files.length > 2 || !isDense(files)) throw einval('files must be a list of one or two attestations');
      const paths = files.map((f) => (f && typeof f === 'object' ? (f as { path?: unknown }).path : undefined));
      if (paths.length === 2 && typeof paths[0] === 'string' && paths[0] === paths[1]) throw einval(`files lists ${paths[0]} twice`);
      return { op: 'policy', files };
    },
  },
  forward: {
    fields: ['head', 'body', 'owner', 'exit', 'rawTraits'],
    parse: (fields, ports) => {
      const request = checkForward(fields);
      const port = ports[0];
      if (!port) throw einval('forward needs a MessagePort transferred for the response');
      return { op: 'forward', request, port };
    },
  },
};

/** A page request's command; ENOTSUP for an op this vault hasn't, EINVAL for a wrong field. */
export function parsePageCommand(op: string, fields: Fields, ports: readonly MessagePort[]): PageCommand {
  const parser = Object.hasOwn(PAGE_OPS, op) ? PAGE_OPS[op] : undefined;
  if (!parser) throw new VaultError('ENOTSUP', `${op} is not an op of this vault`);
  const unknown = Object.keys(fields).find((field) => !parser.fields.includes(field));
  if (unknown) throw einval(`${op} has no field ${unknown}`);
  return parser.parse(fields, ports);
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
export const AGENT_PARSERS: Record<string, OpParser<AgentCommand>> = {
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
};
/** The agent role's reserved ops: ENOTSUP in this version. */
export const AGENT_RESERVED = ['model', 'mcp', 'records', 'grant', 'refresh'];
export const AGENT_OPS = [...Object.keys(AGENT_PARSERS), ...AGENT_RESERVED];

/**
 * An agent request's command: EACCES for an op outside the role, ENOTSUP for a reserved one,
 * EINVAL for a wrong field. The op and field names the agent sent never go back into a message.
 */
export function parseAgentCommand(op: string, fields: Fields): AgentCommand {
  if (!AGENT_OPS.includes(op)) throw new VaultError('EACCES', 'that op is not an op of the agent role');
  const parser = Object.hasOwn(AGENT_PARSERS, op) ? AGENT_PARSERS[op] : undefined;
  if (!parser) throw new VaultError('ENOTSUP', `${op} is not built yet`);
  if (Object.keys(fields).some((field) => !parser.fields.includes(field))) throw einval(`${op} takes only ${parser.fields.join(', ')}`);
  return parser.parse(fields, []);
}
