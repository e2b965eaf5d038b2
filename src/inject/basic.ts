// `Authorization: Basic` as the injector reads it (docs/injector.md, Basic): the credential
// decoded, strict base64 of UTF-8 `user:password`, and written back after filling. Pure.

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Strict base64 (standard alphabet, padding optional): the bytes as a binary string, or null. */
export function decodeBase64(b64: string): string | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.replace(/=+$/, '').length % 4 === 1) return null;
  if (b64.includes('=') && b64.length % 4 !== 0) return null;
  return atob(b64);
}
export function utf8OrNull(binary: string): string | null {
  try {
    return utf8.decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}
export function encodeBase64Utf8(text: string): string {
  let bin = '';
  for (const byte of new TextEncoder().encode(text)) bin += String.fromCharCode(byte);
  return btoa(bin);
}

/**
 * `Basic` (any case) and its credentials, spaces and tabs around them dropped: the reading of
 * `^(basic)(?:[ \t]+(.*?))?[ \t]*$`, done by hand, because that expression backtracks
 * quadratically over a run of spaces (a 64 KiB header held the thread for seconds). Null when the
 * value isn't a Basic credential.
 */
export function basicCredentials(value: string): { scheme: string; credentials: string } | null {
  const scheme = value.slice(0, 5);
  if (scheme.toLowerCase() !== 'basic') return null;
  const blank = (i: number) => value.charCodeAt(i) === 0x20 || value.charCodeAt(i) === 0x09;
  if (value.length > 5 && !blank(5)) return null;
  let from = 5;
  while (from < value.length && blank(from)) from++;
  let to = value.length;
  while (to > from && blank(to - 1)) to--;
  return { scheme, credentials: value.slice(from, to) };
}
