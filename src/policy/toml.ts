// TOML as fnox reads it, through @ltd/j-toml, plus the small helpers the two policy parsers share.
import TOML from '@ltd/j-toml';
import { MAX_TOML_DEPTH, MAX_WARNINGS } from '../limits.ts';

export type Table = { [key: string]: unknown };

/**
 * Parses TOML 1.0; a syntax error comes back as the parser's message (it names the line). Text
 * nested deeper than the limit (README, Limits) is refused before the parser sees it, as `limit`.
 */
export function parseToml(text: string): { table: Table } | { error: string; limit?: true } {
  if (tomlDepth(text, MAX_TOML_DEPTH) > MAX_TOML_DEPTH) {
    return { error: `nested deeper than ${MAX_TOML_DEPTH} tables and arrays`, limit: true };
  }
  try {
    return { table: TOML.parse(text, { joiner: '\n', bigint: false }) as Table };
  } catch (e) {
    return { error: clip(e instanceof Error ? e.message : String(e), 300) };
  }
}

// Every j-toml table (root, section, inline, dotted, array entry) shares one prototype, whose own
// prototype is null; dates and arrays have others. Found at the first use, not at load: the
// frame's bundle starts j-toml only when it parses (scripts/build.mjs).
let tableProto: unknown;

export function isTable(v: unknown): v is Table {
  tableProto ??= Object.getPrototypeOf(TOML.parse('', { joiner: '\n', bigint: false }));
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === tableProto;
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

/**
 * How deep TOML text nests tables and arrays, in one pass over its characters with no parser and no
 * regular expression, stopping as soon as it passes `max`. It counts, at every point, the current
 * table header's parts (`[a.b]` is 2, `[[a.b]]` 3), the parts of the dotted keys being read
 * (`a.b.c =` adds 2), and the open arrays and inline tables; strings and comments are skipped. It
 * may count more than the parser builds (never less), so a refusal can be cautious, never blind.
 */
export function tomlDepth(text: string, max: number): number {
  const n = text.length;
  let deepest = 0;
  let header = 0; // the depth the current table header set
  const open: number[] = []; // open `[` (91) and `{` (123) in values
  const dots: number[] = [0]; // dotted-key parts at the top level, then in each open inline table
  let dotSum = 0;
  let inKey = true; // reading a key (line start, after `{` or after `,` in an inline table)
  let lineStart = true;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (open.length === 0) {
        inKey = true;
        dots.length = 1;
        dots[0] = 0;
        dotSum = 0;
      }
      lineStart = true;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) continue;
    if (c === 35) {
      // a comment, to the end of the line
      while (i + 1 < n && text.charCodeAt(i + 1) !== 10) i++;
      continue;
    }
    if (c === 34 || c === 39) {
      i = skipString(text, i);
      lineStart = false;
      continue;
    }
    if (lineStart && open.length === 0 && c === 91) {
      // a table header: `[a.b]` or `[[a.b]]`
      lineStart = false;
      let parts = 1;
      if (text.charCodeAt(i + 1) === 91) {
        parts++;
        i++;
      }
      for (i++; i < n; i++) {
        const h = text.charCodeAt(i);
        if (h === 34 || h === 39) i = skipString(text, i);
        else if (h === 46) parts++;
        else if (h === 93 || h === 10) break;
      }
      if (text.charCodeAt(i) === 10) i--;
      header = parts;
      if (header > deepest) deepest = header;
      if (deepest > max) return deepest;
      continue;
    }
    lineStart = false;
    if (inKey) {
      if (c === 46) {
        dots[dots.length - 1]!++;
        dotSum++;
      } else if (c === 61) inKey = false;
      else if (c === 125 && open[open.length - 1] === 123) {
        // `{}` or a trailing `,`: the inline table closes where a key was expected
        open.pop();
        dotSum -= dots.pop()!;
        inKey = false;
      }
    } else if (c === 91 || c === 123) {
      open.push(c);
      if (c === 123) {
        dots.push(0);
        inKey = true;
      }
    } else if (c === 93 || c === 125) {
      if (open.pop() === 123 && dots.length > 1) dotSum -= dots.pop()!;
    } else if (c === 44 && open[open.length - 1] === 123) {
      dotSum -= dots[dots.length - 1]!;
      dots[dots.length - 1] = 0;
      inKey = true;
    }
    const d = header + open.length + dotSum;
    if (d > deepest) deepest = d;
    if (deepest > max) return deepest;
  }
  return deepest;
}

/** The index of a string's closing quote (basic, literal or multi-line), or of the text's end. */
function skipString(text: string, i: number): number {
  const q = text.charCodeAt(i);
  const n = text.length;
  const multi = text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q;
  for (let j = multi ? i + 3 : i + 1; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === 92 && q === 34)
      j++; // an escape in a basic string
    else if (c === q) {
      if (!multi) return j;
      if (text.charCodeAt(j + 1) === q && text.charCodeAt(j + 2) === q) {
        // a multi-line string may end with up to two more quotes of its own
        j += 2;
        while (j + 1 < n && text.charCodeAt(j + 1) === q) j++;
        return j;
      }
    } else if (c === 10 && !multi) return j - 1;
  }
  return n;
}

/**
 * A file's warnings, each prefixed with its path: the first 100 (README, Limits) as they come, then
 * one line `and N more`.
 */
export function warnings(list: string[], path: string) {
  let more = 0;
  return {
    warn(w: string) {
      if (list.length < MAX_WARNINGS) list.push(`${path}: ${w}`);
      else more++;
    },
    done() {
      if (more > 0) list.push(`${path}: and ${more} more`);
    },
  };
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** An environment variable name, as records of kind `secret` are named (README, Records). */
export { SECRET_NAME } from '../validate.ts';
