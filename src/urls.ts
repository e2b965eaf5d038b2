// How the injector reads a URL it is asked to fill (README, Forward: URLs that read two ways). Pure.
// The raw text is checked before the WHATWG parser resolves dot segments, turns `\` into `/` or
// decodes anything, because the server at the other end may read it another way.

/** The path as written: after the scheme and the authority, before `?` or `#`. */
export function rawPath(raw: string): string {
  const rest = raw.replace(/^[a-z][a-z0-9+.-]*:[/\\]*[^/\\?#]*/i, '');
  const end = rest.search(/[?#]/);
  return end < 0 ? rest : rest.slice(0, end);
}

const hexDigit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** A `%` anywhere that isn't followed by two hex digits. */
export function hasMalformedEscape(raw: string): boolean {
  for (let i = raw.indexOf('%'); i >= 0; i = raw.indexOf('%', i + 1)) {
    if (!hexDigit(raw.charCodeAt(i + 1)) || !hexDigit(raw.charCodeAt(i + 2))) return true;
  }
  return false;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** Percent-decodes well-formed escapes; null when the bytes aren't UTF-8 (`%c0%ae` reads as `.` to some servers). */
function decodeStrict(segment: string): string | null {
  if (!segment.includes('%')) return segment;
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c === 37 && hexDigit(segment.charCodeAt(i + 1)) && hexDigit(segment.charCodeAt(i + 2))) {
      bytes.push(Number.parseInt(segment.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else {
      const end = c >= 0xd800 && c <= 0xdbff ? i + 2 : i + 1;
      bytes.push(...new TextEncoder().encode(segment.slice(i, end)));
      i = end - 1;
    }
  }
  try {
    return strictUtf8.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/**
 * A path that reads two ways: a raw `\`, or a segment that, percent-decoded, is `.` or `..`,
 * starts with `.;` or `..;` (as Tomcat reads `..;`), holds `/` or `\`, or isn't UTF-8.
 */
export function isAmbiguousPath(raw: string): boolean {
  const path = rawPath(raw);
  if (path.includes('\\')) return true;
  for (const segment of path.split('/')) {
    const s = decodeStrict(segment);
    if (s === null || s === '.' || s === '..' || s.startsWith('.;') || s.startsWith('..;') || s.includes('/') || s.includes('\\')) return true;
  }
  return false;
}

const utf8 = new TextDecoder();
/** Percent-decodes what decodes (a malformed escape stays as written) and reads the bytes as UTF-8. */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(bytes.length);
  let n = 0;
  const value = (b: number) => (b >= 48 && b <= 57 ? b - 48 : b >= 65 && b <= 70 ? b - 55 : b >= 97 && b <= 102 ? b - 87 : -1);
  for (let i = 0; i < bytes.length; i++) {
    const hi = bytes[i] === 37 && i + 2 < bytes.length ? value(bytes[i + 1]) : -1;
    const lo = hi >= 0 ? value(bytes[i + 2]) : -1;
    if (lo >= 0) {
      out[n++] = hi * 16 + lo;
      i += 2;
    } else out[n++] = bytes[i];
  }
  return utf8.decode(out.subarray(0, n));
}
