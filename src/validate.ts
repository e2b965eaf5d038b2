// What a record's name and value may be (README, Records). Pure: each rule answers EINVAL saying
// which rule was broken, never echoing the value.
import type { RecordKind } from './contract.ts';
import { einval } from './errors.ts';

export const PLACEHOLDER_PREFIX = 'fnox_proxy_';
export const PLACEHOLDER = /fnox_proxy_[0-9a-f]{24}/;
/** An exit bios may choose: `page`, `proxy`, `tailscale` or `device:<name>`. */
export const EXIT_NAME = /^(page|proxy|tailscale|device:[A-Za-z0-9][A-Za-z0-9._-]{0,63})$/;
/** An HTTP token (RFC 9110): a method or a header name. */
/** An agent's scrub stream id (README, The agent's ops). */
export const STREAM_ID = /^[A-Za-z0-9._:-]{1,64}$/;
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export const RECORD_KINDS: readonly RecordKind[] = ['secret', 'grant', 'model', 'mcp'];
export const MAX_VALUE_BYTES = 65536;

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const OTHER_NAME = /^[A-Za-z0-9_.:@/-]+$/;

/** A new placeholder: `fnox_proxy_` and 24 lower-case hex characters from getRandomValues. */
export function newPlaceholder(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return PLACEHOLDER_PREFIX + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function checkKind(kind: unknown): RecordKind {
  if (kind === undefined) return 'secret';
  if (typeof kind === 'string' && (RECORD_KINDS as string[]).includes(kind)) return kind as RecordKind;
  throw einval(`kind must be one of ${RECORD_KINDS.join(', ')}`);
}

export function checkName(name: unknown, kind: RecordKind): string {
  if (typeof name !== 'string') throw einval('name must be a string');
  if (name.length < 1 || name.length > 128) throw einval('name must be 1 to 128 characters');
  if (kind === 'secret') {
    if (!SECRET_NAME.test(name)) {
      throw einval("a secret's name must be an environment variable name: a letter or _, then letters, digits or _");
    }
  } else if (!OTHER_NAME.test(name)) {
    throw einval(`a ${kind} record's name may hold only letters, digits and _ . : @ / -`);
  }
  return name;
}

/** A value: UTF-8 text of 8 to 65,536 bytes, without CR, LF or NUL, holding no placeholder. */
export function checkValue(value: unknown): string {
  if (typeof value !== 'string') throw einval('value must be a string');
  if (!value.isWellFormed()) throw einval('value must be valid UTF-8 text (it holds a lone surrogate)');
  const bytes = new TextEncoder().encode(value).length;
  if (bytes < 8) throw einval("values shorter than 8 bytes can't be protected from the model");
  if (bytes > MAX_VALUE_BYTES) throw einval(`values longer than ${MAX_VALUE_BYTES} bytes aren't accepted`);
  if (/[\r\n\0]/.test(value)) throw einval('value must not contain CR, LF or NUL');
  if (PLACEHOLDER.test(value)) throw einval('value must not contain a placeholder');
  return value;
}

export function checkOptionalString(field: string, value: unknown, max = 256): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length < 1 || value.length > max) {
    throw einval(`${field} must be a string of 1 to ${max} characters`);
  }
  return value;
}

export function checkOptionalTime(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw einval(`${field} must be a time in epoch milliseconds`);
  }
  return value;
}
