// /dev/sealed (README, /dev/sealed): the kernel's requests, relayed by bios as the `sealed` op with
// the kernel's stamp. Parsing is pure; the answer uses the vault's services. No value ever leaves
// the vault this way: replies carry placeholders, states and verdicts only.
import type { SealedReply, SealedRequest, Stamp } from '../contract.ts';
import { VaultError, einval, enoent, errorBody } from '../errors.ts';
import { statusOf } from '../store/requests.ts';
import type { StoredRecord } from '../store/schema.ts';
import type { TestRequest } from '../inject/injector.ts';
import type { InEffect } from '../core/namespace-state.ts';
import type { Actor, RecordInput, RotationCheck } from '../store/records.ts';
import type { NewRequest, StoredRequest } from '../store/requests.ts';
import type { RecordState, RequestStateName, SecretView } from '../contract.ts';

/** What /dev/sealed uses of the vault: writes, the namespace from memory, requests, the verdict of `test`. */
export interface SealedVault {
  now(): number;
  write(namespace: string, input: RecordInput, options: { check?: RotationCheck; actor?: Actor }): Promise<{ placeholder: string; state: RecordState }>;
  record(namespace: string, name: string): Promise<StoredRecord | undefined>;
  inEffect(namespace: string): Promise<InEffect>;
  changed(namespace: string): Promise<{ secrets: SecretView[] }>;
  test(namespace: string, request: TestRequest): Promise<SealedReply>;
  request(namespace: string, fields: NewRequest): Promise<StoredRequest>;
  requestsOf(namespace: string): Promise<StoredRequest[]>;
  requestOf(namespace: string, id: string): Promise<StoredRequest>;
  cancel(namespace: string, id: string): Promise<{ state: RequestStateName }>;
}
import { stateOf } from '../core/views.ts';
import { EXIT_NAME, checkAnyName, checkName, checkValue } from '../validate.ts';
import { MAX_PROMPT, MAX_PROVIDER, MAX_REQ_TEXT, MAX_TAG, MAX_TOKEN, MAX_URL, boundedString, checkOauthSize, size } from '../limits.ts';

/** The kernel's stamp, trusted as given but checked for shape (a malformed one is bios's bug). */
export function parseStamp(stamp: unknown): Stamp {
  const s = stamp as Partial<Stamp> | null;
  if (!s || typeof s !== 'object') throw einval('stamp must be { pid, ppid, uid, gid, tag }');
  for (const field of ['pid', 'ppid', 'uid', 'gid'] as const) {
    if (!Number.isSafeInteger(s[field]) || (s[field] as number) < 0) throw einval(`stamp.${field} must be a non-negative integer`);
  }
  if (typeof s.tag !== 'string') throw einval('stamp.tag must be a string');
  if (s.tag.length > MAX_TAG) throw einval(`stamp.tag must be at most ${MAX_TAG} characters`);
  return { pid: s.pid!, ppid: s.ppid!, uid: s.uid!, gid: s.gid!, tag: s.tag };
}

type Fields = Record<string, unknown>;

/** A string field within its limit (README, Limits); the message names the field, never its text. */
function string(req: Fields, field: string, max: number, optional = false): string | undefined {
  return boundedString(field, req[field], max, optional);
}

function only(req: Fields, allowed: string[]) {
  const extra = Object.keys(req).find((k) => k !== 'op' && !allowed.includes(k));
  if (extra) throw einval(extra.length <= MAX_TOKEN ? `${String(req.op)} has no field ${extra}` : `${String(req.op)} has a field it doesn't know`);
}

/** A /dev/sealed request, from its object or JSON text; EINVAL names the field that is wrong. */
export function parseSealedRequest(req: unknown): SealedRequest {
  if (typeof req === 'string') {
    if (req.length > MAX_REQ_TEXT) throw einval(`req must be at most ${size(MAX_REQ_TEXT)} of JSON text`);
    try {
      req = JSON.parse(req);
    } catch {
      throw einval('req is not JSON');
    }
  }
  if (!req || typeof req !== 'object' || Array.isArray(req)) throw einval('req must be an object');
  const r = req as Fields;
  switch (r.op) {
    case 'seal':
      only(r, ['name', 'value']);
      return { op: 'seal', name: checkName(r.name, 'secret'), value: checkValue(r.value) };
    case 'placeholder':
      only(r, ['name']);
      return { op: 'placeholder', name: checkAnyName(r.name) };
    case 'list':
      only(r, []);
      return { op: 'list' };
    case 'test': {
      only(r, ['name', 'url', 'method', 'header', 'exit']);
      const exit = string(r, 'exit', MAX_TOKEN, true);
      if (exit !== undefined && !EXIT_NAME.test(exit)) throw einval('exit must be page, proxy, tailscale or device:<name>');
      return {
        op: 'test',
        name: checkAnyName(r.name),
        url: string(r, 'url', MAX_URL)!,
        ...(r.method !== undefined && { method: string(r, 'method', MAX_TOKEN) }),
        ...(r.header !== undefined && { header: string(r, 'header', MAX_TOKEN) }),
        ...(exit !== undefined && { exit: exit as never }),
      };
    }
    case 'request':
      switch (r.kind) {
        case 'value': {
          only(r, ['kind', 'name', 'prompt']);
          if (r.prompt !== undefined && typeof r.prompt !== 'string') throw einval('prompt must be a string');
          if (typeof r.prompt === 'string' && r.prompt.length > MAX_PROMPT) {
            throw einval(`prompt must be at most ${MAX_PROMPT} characters`);
          }
          return { op: 'request', kind: 'value', name: checkName(r.name, 'secret'), ...(r.prompt !== undefined && { prompt: r.prompt as string }) };
        }
        case 'oauth':
          only(r, ['kind', 'provider', 'oauth']);
          if (!r.oauth || typeof r.oauth !== 'object' || Array.isArray(r.oauth)) throw einval('oauth must be an object');
          checkOauthSize(r.oauth);
          return { op: 'request', kind: 'oauth', provider: string(r, 'provider', MAX_PROVIDER)!, oauth: r.oauth as Record<string, unknown> };
        case 'jerk-seal':
          only(r, ['kind', 'provider']);
          return { op: 'request', kind: 'jerk-seal', provider: string(r, 'provider', MAX_PROVIDER)! };
        default:
          throw einval('kind must be value, oauth or jerk-seal');
      }
    case 'status':
      only(r, ['id']);
      return { op: 'status', ...(r.id !== undefined && { id: string(r, 'id', MAX_TOKEN) }) };
    case 'cancel':
      only(r, ['id']);
      return { op: 'cancel', id: string(r, 'id', MAX_TOKEN)! };
    case 'materialize':
      return { op: 'materialize', name: typeof r.name === 'string' && r.name.length <= 128 ? r.name : '' };
    default:
      if (typeof r.op !== 'string') throw einval('op must be a string');
      throw einval(r.op.length <= MAX_TOKEN ? `op ${r.op} is not a /dev/sealed op` : 'op must be a /dev/sealed op');
  }
}

/** The `sealed` op's `reply`: the op's result or `{ error }`, never a port error. */
export async function answerSealed(vault: SealedVault, namespace: string, request: SealedRequest, stamp: Stamp): Promise<SealedReply> {
  try {
    return await answer(vault, namespace, request, stamp);
  } catch (error) {
    return { error: errorBody(error) };
  }
}

async function answer(vault: SealedVault, namespace: string, request: SealedRequest, stamp: Stamp): Promise<SealedReply> {
  const actor = { uid: stamp.uid, tag: stamp.tag };
  switch (request.op) {
    case 'seal':
      // A process value is rotated only by the uid that sealed it; a value from a person or a
      // sign-in only by root. Root may rotate anything (README, /dev/sealed).
      return vault.write(
        namespace,
        { name: request.name, value: request.value, kind: 'secret', source: 'process', uid: stamp.uid },
        {
          check: (existing) => {
            if (stamp.uid === 0) return;
            if (existing.source !== 'process') {
              throw new VaultError('EEXIST', `${request.name} holds a value from ${existing.source}; only root may replace it`);
            }
            if (existing.uid !== stamp.uid) throw new VaultError('EEXIST', `${request.name} was sealed by another user`);
          },
          actor,
        },
      );
    case 'placeholder': {
      const record = await vault.record(namespace, request.name);
      if (!record) throw enoent(`there is no record named ${request.name}`);
      return { placeholder: record.placeholder, state: stateOf(record, (await vault.inEffect(namespace)).policy) };
    }
    case 'list': {
      const { secrets } = await vault.changed(namespace);
      return {
        secrets: secrets
          .filter((s) => s.kind === 'secret' && s.state !== 'removed')
          .map(({ name, placeholder, state, exec, rules, expiresAt }) => ({
            name,
            placeholder,
            state,
            exec,
            rules,
            ...(expiresAt !== undefined && { expiresAt }),
          })),
      };
    }
    case 'test':
      return vault.test(namespace, request);
    case 'request': {
      const { op: _, ...fields } = request;
      const made = await vault.request(namespace, { ...fields, ...actor });
      return { state: 'pending', id: made.id };
    }
    case 'status': {
      const now = vault.now();
      if (request.id !== undefined) return statusOf(await visible(vault, namespace, request.id, stamp), now);
      const all = await vault.requestsOf(namespace);
      return { requests: all.filter((r) => r.uid !== undefined && (stamp.uid === 0 || r.uid === stamp.uid)).map((r) => statusOf(r, now)) };
    }
    case 'cancel': {
      const mine = await visible(vault, namespace, request.id, stamp);
      return (await vault.cancel(namespace, mine.id)) as SealedReply;
    }
    case 'materialize':
      throw new VaultError('ENOTSUP', 'exec is not built yet');
  }
}

/** A request the caller may see: its own, or any for root; others are ENOENT. */
async function visible(vault: SealedVault, namespace: string, id: string, stamp: Stamp) {
  const request = await vault.requestOf(namespace, id);
  if (request.uid === undefined || (stamp.uid !== 0 && request.uid !== stamp.uid)) throw enoent('there is no request with that id');
  return request;
}
