// `.env` files (README, Backup and restore): `NAME=value` lines restore as secrets, each line by
// the record rules; an invalid line is named by its number, never by its text.
import { MAX_DOTENV_LINES } from '../limits.ts';
import { SECRET_NAME, checkValue } from '../validate.ts';
import { BackupError, type Incoming, type ReadFile } from './format.ts';

/**
 * Reads a `.env` file: `NAME=value` lines, with an optional `export ` prefix, single-quoted
 * (literal), double-quoted (`\"`, `\\` escapes) or bare values (a ` #` starts a comment), `#`
 * comment lines and blank lines. Each pair is a `secret`; one pass over the text, no backtracking.
 */
export function readDotenv(text: string): ReadFile {
  const records: Incoming[] = [];
  const invalidLines: string[] = [];
  const lineOf = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  if (lines.length > MAX_DOTENV_LINES) {
    throw new BackupError(`That .env file has more than ${MAX_DOTENV_LINES} lines. Nothing was restored.`);
  }
  lines.forEach((raw, i) => {
    const n = i + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const pair = parseDotenvLine(trimmed);
    if ('problem' in pair) {
      invalidLines.push(`line ${n}: ${pair.problem}`);
      return;
    }
    const { name, value } = pair;
    if (lineOf.has(name)) {
      invalidLines.push(`line ${n}: ${name} was already given on line ${lineOf.get(name)}`);
      return;
    }
    lineOf.set(name, n);
    try {
      checkValue(value);
      records.push({ name, kind: 'secret', value });
    } catch (error) {
      records.push({ name, kind: 'secret', problem: `line ${n}: ${(error as Error).message}` });
    }
  });
  if (records.length === 0 && invalidLines.length === 0) {
    throw new BackupError('That .env file holds no NAME=value line. Nothing was restored.');
  }
  return { source: 'import:dotenv', records, invalidLines };
}

function parseDotenvLine(line: string): { name: string; value: string } | { problem: string } {
  let rest = line;
  if (/^export[ \t]/.test(rest)) rest = rest.slice(7).trimStart();
  const eq = rest.indexOf('=');
  if (eq < 0) return { problem: 'not NAME=value' };
  const name = rest.slice(0, eq).trimEnd();
  if (!SECRET_NAME.test(name)) {
    return { problem: 'the name must be an environment variable name of at most 128 characters: a letter or _, then letters, digits or _' };
  }
  const after = rest.slice(eq + 1).trimStart();
  const quote = after[0];
  if (quote === "'" || quote === '"') {
    let value = '';
    let i = 1;
    for (; i < after.length; i++) {
      const c = after[i]!;
      if (c === quote) break;
      if (quote === '"' && c === '\\' && i + 1 < after.length) {
        const next = after[++i]!;
        value += next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : next;
      } else value += c;
    }
    if (i >= after.length) return { problem: `${name}: the quoted value has no closing quote (values are one line)` };
    const tail = after.slice(i + 1).trim();
    if (tail !== '' && !tail.startsWith('#')) return { problem: `${name}: text follows the closing quote` };
    return { name, value };
  }
  const hash = after.search(/[ \t]#/);
  return { name, value: (hash < 0 ? after : after.slice(0, hash)).trimEnd() };
}
