// TOML as fnox reads it, through @ltd/j-toml, plus the small helpers the two policy parsers share.
import TOML from '@ltd/j-toml';

export type Table = { [key: string]: unknown };

/** Parses TOML 1.0; a syntax error comes back as the parser's message (it names the line). */
export function parseToml(text: string): { table: Table } | { error: string } {
  try {
    return { table: TOML.parse(text, { joiner: '\n', bigint: false }) as Table };
  } catch (e) {
    return { error: clip(e instanceof Error ? e.message : String(e), 300) };
  }
}

// Every j-toml table (root, section, inline, dotted, array entry) shares one prototype, whose own
// prototype is null; dates and arrays have others.
const TABLE_PROTO: unknown = Object.getPrototypeOf(TOML.parse('', { joiner: '\n', bigint: false }));

export function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === TABLE_PROTO;
}

/** A short, single-line rendering of a value from the file for a warning. */
export function show(v: unknown): string {
  let s: string;
  try {
    s = isTable(v) ? 'a table' : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return clip(s, 80);
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** An environment variable name, as records of kind `secret` are named (README, Records). */
export { SECRET_NAME } from '../validate.ts';
