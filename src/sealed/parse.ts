// /dev/sealed's requests (README, /dev/sealed), parsed once at the boundary: a request's object or
// JSON text becomes a typed `SealedRequest`, or EINVAL naming the field that is wrong (never its text).
import type { SealedRequest } from '../contract.ts';
import { einval } from '../errors.ts';
import {
  MAX_EXEC_VARS,
  MAX_PROMPT,
  MAX_PROVIDER,
  MAX_REQ_TEXT,
  MAX_REQ_VALUES,
  MAX_TOKEN,
  MAX_URL,
  boundedString,
  checkOauthSize,
  size,
  tooManyReqValues,
} from '../limits.ts';
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

const ESCAPED: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** A JSON string's characters from its text between the quotes, escapes read (only well-formed ones occur in valid JSON). */
function unescaped(text: string, from: number, to: number): string {
  let out = '';
  let run = from;
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) !== 0x5c) continue;
    out += text.slice(run, i);
    const e = text[i + 1] ?? '';
    if (e === 'u') {
      out += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
      i += 5;
    } else {
      out += ESCAPED[e] ?? e;
      i++;
    }
    run = i + 1;
  }
  return out + text.slice(run, to);
}

/**
 * JSON text's shape, read in one linear pass before it is parsed: how many keys and values it
 * holds (each item and container counts; the count stops past `max`), and whether an object names
 * a key twice, its escapes read (`"a"` and `"\u0061"` are one key). On text that isn't JSON the
 * answer means nothing, and the pass still ends: JSON.parse refuses that text.
 */
export function jsonShape(text: string, max = Number.POSITIVE_INFINITY): { values: number; repeats: boolean } {
  const objects: (Set<string> | null)[] = [];
  let values = 0;
  let repeats = false;
  // Whether the next token starts a value: at the start, after `[`, `:` or `,` (a key after `{` or `,` in an object).
  let expectValue = true;
  for (let i = 0; i < text.length && values <= max; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20) continue;
    if (c === 0x7b || c === 0x5b) {
      values++;
      objects.push(c === 0x7b ? new Set() : null);
      expectValue = c === 0x5b;
    } else if (c === 0x7d || c === 0x5d) {
      objects.pop();
      expectValue = false;
    } else if (c === 0x2c || c === 0x3a) {
      expectValue = c === 0x3a || objects[objects.length - 1] === null;
    } else if (c === 0x22) {
      let end = i + 1;
      let escaped = false;
      while (end < text.length && text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c) {
          escaped = true;
          end++;
        }
        end++;
      }
      values++;
      const keys = objects[objects.length - 1];
      if (!expectValue && keys && !repeats) {
        const key = escaped ? unescaped(text, i + 1, end) : text.slice(i + 1, end);
        if (keys.has(key)) repeats = true;
        keys.add(key);
      }
      expectValue = false;
      i = end;
    } else {
      // A number, true, false or null: up to the next delimiter.
      values++;
      while (i + 1 < text.length && !DELIMITS.has(text.charCodeAt(i + 1))) i++;
      expectValue = false;
    }
  }
  return { values, repeats };
}
const DELIMITS = new Set([0x2c, 0x3a, 0x5d, 0x7d, 0x20, 0x09, 0x0a, 0x0d, 0x22, 0x5b, 0x7b]);

/** Whether valid JSON text has an object with two equal keys (after their escapes). */
export function repeatsKey(text: string): boolean {
  return jsonShape(text).repeats;
}

/** A /dev/sealed request, from its object or JSON text; EINVAL names the field that is wrong. */
export function parseSealedRequest(req: unknown): SealedRequest {
  if (typeof req === 'string') {
    if (req.length > MAX_REQ_TEXT) throw einval(`req must be at most ${size(MAX_REQ_TEXT)} of JSON text`);
    const text = req;
    // Counted before JSON.parse builds anything: a text of many small values holds the thread.
    const shape = jsonShape(text, MAX_REQ_VALUES);
    if (shape.values > MAX_REQ_VALUES) throw tooManyReqValues();
    try {
      req = JSON.parse(text);
    } catch {
      throw einval('req is not JSON');
    }
    // JSON.parse keeps the last of two equal keys, another reader the first: read two ways, refused.
    if (shape.repeats) throw einval('req names a key twice in one object');
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
