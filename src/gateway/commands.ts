// Parse at the boundary (README, Embedding API): the page ops' parser table. Each parser turns a
// request's `unknown` fields into a typed command, or throws EINVAL naming the field that is wrong;
// the op families' own parsers (/dev/sealed, forward, the agent's) sit in their folders. Nothing
// below the parsers sees `unknown`. Pure, but for the transferred port.
import { type OpParser, type OpTable, parseAgentCommand } from '../agent/index.ts';
import type { ErrorBody, Op, SealFields, SealedRequest, Stamp } from '../contract.ts';
import { VaultError, einval, errorBody } from '../errors.ts';
import { type ForwardRequest, parseForward } from '../forward/index.ts';
import { checkUnregister } from '../inject/index.ts';
import { MAX_AUDIT_LIMIT } from '../limits.ts';
import { parseSealedRequest } from '../sealed/index.ts';
import type { RecordInput } from '../store/index.ts';
import type { GivenFile } from '../core/index.ts';
import { checkKind, checkName, checkOptionalString, checkOptionalTime, checkValue, isDense, parseStamp } from '../validate.ts';

export { parseAgentCommand };
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
  /** Each attestation as bios sent it, with the path it names (checked later: an untrusted file is a warning, not an error). */
  | { op: 'policy'; files: GivenFile[] }
  | { op: 'forward'; request: ForwardRequest; port: MessagePort };

type Fields = Record<string, unknown>;

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
export const PAGE_OPS: OpTable<Op, PageCommand> = {
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
    person: true,
    fields: ['name', 'value', 'kind', 'provider', 'account', 'expiresAt', 'request'],
    parse: (fields) => {
      const input = recordInput(fields, 'settings');
      if (fields.request !== undefined && (typeof fields.request !== 'string' || !fields.request)) throw einval('request must be a request id');
      return { op: 'put', input, ...(fields.request !== undefined && { request: fields.request as string }) };
    },
  },
  seal: {
    person: true,
    fields: ['name', 'value', 'source', 'kind', 'provider', 'account', 'expiresAt'],
    parse: (fields) => {
      if (fields.kind === undefined) throw einval('kind is required');
      checkKind(fields.kind);
      if (typeof fields.source !== 'string' || !SEAL_SOURCE.test(fields.source)) throw einval('source must be oauth:<provider> or jerk:<provider>@<device>');
      const source = fields.source as SealFields['source'];
      return { op: 'seal', input: { ...recordInput(fields, source), source } };
    },
  },
  remove: { person: true, fields: ['name'], parse: (fields) => ({ op: 'remove', name: name(fields) }) },
  restore: { person: true, fields: ['name'], parse: (fields) => ({ op: 'restore', name: name(fields) }) },
  cancel: {
    person: true,
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
      const given = files.map(
        (attestation): GivenFile => ({ path: attestation && typeof attestation === 'object' ? attestation.path : undefined, attestation }),
      );
      if (given.length === 2 && typeof given[0]!.path === 'string' && given[0]!.path === given[1]!.path) throw einval(`files lists ${given[0]!.path} twice`);
      return { op: 'policy', files: given };
    },
  },
  forward: {
    fields: ['head', 'body', 'owner', 'exit', 'rawTraits'],
    parse: (fields, ports) => {
      const request = parseForward(fields);
      const port = ports[0];
      if (!port) throw einval('forward needs a MessagePort transferred for the response');
      return { op: 'forward', request, port };
    },
  },
};

/**
 * A page request's command, and whether it is the person acting; ENOTSUP for an op this vault
 * hasn't, EINVAL for a wrong field.
 */
export function parsePageCommand(op: string, fields: Fields, ports: readonly MessagePort[]): PageCommand & { person?: true } {
  const parser = Object.hasOwn(PAGE_OPS, op) ? PAGE_OPS[op as Op['op']] : undefined;
  if (!parser) throw new VaultError('ENOTSUP', `${op} is not an op of this vault`);
  for (const field in fields) if (!parser.fields.includes(field)) throw einval(`${op} has no field ${field || '""'}`);
  const command = parser.parse(fields, ports);
  return parser.person ? { ...command, person: true } : command;
}
