// `.env` files (README, Backup and restore): `NAME=value` lines restore as secrets, each line by
// the record rules; an invalid line is named by its number, never by its text.
import { MAX_DOTENV_LINES, MAX_NAME, MAX_VALUE_BYTES } from '../limits.ts';
import { SECRET_NAME, checkValue, valueTooLong } from '../validate.ts';
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
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Counted before the text is cut into lines, so a file of line breaks makes no list of millions.
  for (let at = body.indexOf('\n'), count = 1; at >= 0; at = body.indexOf('\n', at + 1)) {
    if (++count > MAX_DOTENV_LINES) throw new BackupError(`That .env file has more than ${MAX_DOTENV_LINES} lines. Nothing was restored.`);
  }
  body.split('\n').forEach((raw, i) => {
    const n = i + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const pair = parseDotenvLine(trimmed);
    if ('problem' in pair) {
      invalidLines.push(`line ${n}: ${pair.problem}`);
      return;
    }
    const { name } = pair;
    if (lineOf.has(name)) {
      invalidLines.push(`line ${n}: ${name} was already given on line ${lineOf.get(name)}`);
      return;
    }
    lineOf.set(name, n);
    try {
      if ('tooLong' in pair) throw valueTooLong();
      records.push({ name, kind: 'secret', value: checkValue(pair.value) });
    } catch (error) {
      records.push({ name, kind: 'secret', problem: `line ${n}: ${(error as Error).message}` });
    }
  });
  if (records.length === 0 && invalidLines.length === 0) {
    throw new BackupError('That .env file holds no NAME=value line. Nothing was restored.');
  }
  return { source: 'import:dotenv', records, invalidLines };
}

type Line = { name: string; value: string } | { name: string; tooLong: true } | { problem: string };

/**
 * One line, read with the engine's own searches (indexOf, one linear regular expression) and
 * slices, never copied character by character: a value longer than a record may hold is refused
 * by its length before it is read (README, Limits).
 */
function parseDotenvLine(line: string): Line {
  let rest = line;
  if (/^export[ \t]/.test(rest)) rest = rest.slice(7).trimStart();
  const eq = rest.indexOf('=');
  if (eq < 0) return { problem: 'not NAME=value' };
  const name = eq <= MAX_NAME + 16 ? rest.slice(0, eq).trimEnd() : '';
  if (!SECRET_NAME.test(name)) {
    return { problem: 'the name must be an environment variable name of at most 128 characters: a letter or _, then letters, digits or _' };
  }
  const after = rest.slice(eq + 1).trimStart();
  const quote = after[0];
  if (quote === "'" || quote === '"') {
    const close = closingQuote(after, quote);
    if (close < 0) return { problem: `${name}: the quoted value has no closing quote (values are one line)` };
    const tail = after.slice(close + 1).trim();
    if (tail !== '' && !tail.startsWith('#')) return { problem: `${name}: text follows the closing quote` };
    // An escape is two characters for one: a quoted text over twice the limit can't fit in it.
    const quoted = close - 1;
    if (quoted > (quote === '"' ? 2 : 1) * MAX_VALUE_BYTES) return { name, tooLong: true };
    const inner = after.slice(1, close);
    return { name, value: quote === '"' ? unescaped(inner) : inner };
  }
  const hash = after.search(/[ \t]#/);
  const value = (hash < 0 ? after : after.slice(0, hash)).trimEnd();
  return value.length > MAX_VALUE_BYTES ? { name, tooLong: true } : { name, value };
}

/** The index of the quote that closes the value opened at 0, or -1: in double quotes, `\"` doesn't close. */
function closingQuote(text: string, quote: string): number {
  for (let at = text.indexOf(quote, 1); at >= 0; at = text.indexOf(quote, at + 1)) {
    if (quote === "'") return at;
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/** A double-quoted value's escapes: `\n`, `\r`, `\t`, and `\x` for any other x. At most 128 KiB here. */
function unescaped(inner: string): string {
  return inner.replace(/\\([\s\S])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c));
}
