// /dev/sealed's requests (README, /dev/sealed), parsed once at the boundary: a request's object or
// JSON text becomes a typed `SealedRequest`, or EINVAL naming the field that is wrong (never its text).
import type { SealedRequest } from '../contract.ts';
import { einval } from '../errors.ts';
import { MAX_EXEC_VARS, MAX_PROMPT, MAX_PROVIDER, MAX_REQ_TEXT, MAX_TOKEN, MAX_URL, boundedString, checkOauthSize, size } from '../limits.ts';
import { EXIT_NAME, PLACEHOLDER_EXACT, SECRET_NAME, checkAnyName, checkName, checkValue } from '../validate.ts';

type Fields = Record<string, unknown>;

/** A string field within its limit (README, Limits); the message names the field, never its text. */
function string(req: Fields, field: string, max: number, optional = false): string | undefined {
  return boundedString(field, req[field], max, optional);
}

function only(req: Fields, allowed: string[]) {
  const extra = Object.keys(req).find((k) => k !== 'op' && !allowed.includes(k));
  if (extra !== undefined)
    throw einval(extra.length <= MAX_TOKEN ? `${String(req.op)} has no field ${extra || '""'}` : `${String(req.op)} has a field it doesn't know`);
}

/** Whether valid JSON text has an object with two equal keys (after their escapes); one linear pass. */
export function repeatsKey(text: string): boolean {
  const objects: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) objects.push(new Set());
    else if (c === 0x5b) objects.push(null);
    else if (c === 0x7d || c === 0x5d) objects.pop();
    else if (c === 0x22) {
      let end = i + 1;
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      const keys = objects[objects.length - 1];
      let next = end + 1;
      while (text.charCodeAt(next) <= 0x20) next++;
      if (keys && text.charCodeAt(next) === 0x3a) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return true;
        keys.add(key);
      }
      i = end;
    }
  }
  return false;
}

/** A /dev/sealed request, from its object or JSON text; EINVAL names the field that is wrong. */
export function parseSealedRequest(req: unknown): SealedRequest {
  if (typeof req === 'string') {
    if (req.length > MAX_REQ_TEXT) throw einval(`req must be at most ${size(MAX_REQ_TEXT)} of JSON text`);
    const text = req;
    try {
      req = JSON.parse(text);
    } catch {
      throw einval('req is not JSON');
    }
    // JSON.parse keeps the last of two equal keys, another reader the first: read two ways, refused.
    if (repeatsKey(text)) throw einval('req names a key twice in one object');
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
      only(r, ['env']);
      return { op: 'materialize', env: parseEnv(r.env) };
    default:
      if (typeof r.op !== 'string') throw einval('op must be a string');
      throw einval(r.op.length <= MAX_TOKEN ? `op ${r.op} is not a /dev/sealed op` : 'op must be a /dev/sealed op');
  }
}

/**
 * `materialize`'s `env`: 1 to 32 variables, each an environment variable name naming a placeholder
 * (README, Exec). Counted before any is read; the message names a variable, never a value.
 */
function parseEnv(env: unknown): Record<string, string> {
  if (!env || typeof env !== 'object' || Array.isArray(env)) throw einval('env must be an object of variables and placeholders');
  const names: string[] = [];
  for (const name in env) {
    if (!Object.hasOwn(env, name)) continue;
    if (names.length === MAX_EXEC_VARS) throw einval(`env must name at most ${MAX_EXEC_VARS} variables`);
    names.push(name);
  }
  if (names.length === 0) throw einval('env must name at least one variable');
  const out: Record<string, string> = Object.create(null);
  for (const name of names) {
    if (!SECRET_NAME.test(name)) throw einval('env names must be environment variable names: a letter or _, then letters, digits or _, at most 128');
    const placeholder = (env as Record<string, unknown>)[name];
    if (typeof placeholder !== 'string' || !PLACEHOLDER_EXACT.test(placeholder)) throw einval(`env.${name} must be a placeholder`);
    out[name] = placeholder;
  }
  return out;
}
