// The forward tester's built-in echo upstream. The demo plays bios, and bios sends the injected
// request itself; the demo never sends it anywhere. It fabricates the response an echo server
// would give (the request's head reflected, header values included, plus their base64) and posts
// it through the vault's response port, as bios would relay a real one, to watch the scrub.
import type { RequestHead, ResponsePart } from '../src/contract.ts';

const enc = new TextEncoder();
const b64 = (s: string) => btoa(String.fromCharCode(...enc.encode(s)));

/** What an echo server would answer to `head`, cut into 16-byte body chunks. */
export function echoResponse(head: RequestHead): ResponsePart[] {
  const body = JSON.stringify(
    {
      echo: 'the demo’s built-in echo upstream',
      method: head.method,
      url: head.url,
      headers: Object.fromEntries(head.headers.map(([n, v]) => [n.toLowerCase(), v])),
      base64: Object.fromEntries(head.headers.map(([n, v]) => [n.toLowerCase(), b64(v)])),
    },
    null,
    2,
  );
  const bytes = enc.encode(body);
  const chunks: ResponsePart[] = [];
  for (let i = 0; i < bytes.length; i += 16) chunks.push({ op: 'body', chunk: bytes.slice(i, i + 16) });
  return [
    {
      op: 'response',
      status: 200,
      statusText: 'OK',
      url: head.url,
      headers: [['content-type', 'application/json'], ...head.headers.map(([n, v]): [string, string] => [`x-echo-${n.toLowerCase()}`, v])],
    },
    ...chunks,
    { op: 'end' },
  ];
}

/** What came back through the vault: the response head and the body as text. */
export interface Scrubbed {
  head: Extract<ResponsePart, { op: 'response' }> | null;
  body: string;
  end: 'end' | 'error' | null;
  error?: string;
}

/** Posts `parts` on bios's end of the response channel and collects the scrubbed answer. */
export function relay(port: MessagePort, parts: ResponsePart[], ms = 5000): Promise<Scrubbed> {
  const out: Scrubbed = { head: null, body: '', end: null };
  const decoder = new TextDecoder();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(out), ms);
    port.onmessage = ({ data }: MessageEvent<ResponsePart>) => {
      if (data.op === 'response') out.head = data;
      else if (data.op === 'body') out.body += decoder.decode(data.chunk, { stream: true });
      else {
        out.body += decoder.decode();
        out.end = data.op;
        if (data.op === 'error') out.error = data.message;
        clearTimeout(timer);
        port.close();
        resolve(out);
      }
    };
    for (const part of parts) port.postMessage(part);
  });
}

/** The parts of the injected header values that the vault filled in (what differs from the sent). */
export function filledIn(sent: RequestHead, injected: RequestHead): string[] {
  const found: string[] = [];
  injected.headers.forEach(([, value], i) => {
    const before = sent.headers[i]?.[1] ?? '';
    if (value === before) return;
    let p = 0;
    while (p < value.length && p < before.length && value[p] === before[p]) p++;
    let q = 0;
    while (q < value.length - p && q < before.length - p && value[value.length - 1 - q] === before[before.length - 1 - q]) q++;
    found.push(value.slice(p, value.length - q));
  });
  return found.filter((s) => s.length > 0);
}

/** `text` with each of `values` (and its base64) replaced by dots, for showing it. */
export function mask(text: string, values: string[]): string {
  let out = text;
  for (const v of values) for (const form of [v, b64(v)]) out = out.split(form).join('•'.repeat(Math.min(form.length, 12)));
  return out;
}
