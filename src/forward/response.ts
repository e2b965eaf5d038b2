// The response of a forwarded request, over the port bios transferred with `forward` (README,
// Forward): every part comes back scrubbed over the namespace's values: status text, URL, each
// header name and value, the body as a stream (its held tail goes, scrubbed, after 250 ms
// without input; a form completing after that has its rest replaced), and the error message. The
// parts are taken one after the other, and a big body chunk is scrubbed in slices that give the
// thread back (README, Limits), whatever size bios or the upstream hands it over in.
import type { ResponsePart } from '../contract.ts';
import { type Scrubber, bytePieces, slicer } from '../scrub/index.ts';
import { isDense } from '../validate.ts';
import { IDLE_MS } from '../limits.ts';

export function relayResponse(port: MessagePort, scrubber: Scrubber): void {
  const body = scrubber.stream();
  const text = (s: unknown) => scrubber.redact(typeof s === 'string' ? s : '').text;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const send = (part: ResponsePart) => port.postMessage(part);
  const sendBody = (chunk: Uint8Array) => chunk.length > 0 && send({ op: 'body', chunk: new Uint8Array(chunk) });
  const finish = (last: ResponsePart) => {
    clearTimeout(idle);
    done = true;
    sendBody(body.end());
    send(last);
    port.close();
  };

  // A timer may fire a little early by the stream's clock: then it waits the rest.
  const release = () => {
    const wait = body.idleIn();
    if (wait > 0) idle = setTimeout(release, wait);
    else sendBody(body.idle());
  };

  let tail = Promise.resolve();
  port.onmessage = ({ data }: MessageEvent<ResponsePart>) => {
    tail = tail
      .then(() => take(data))
      .catch(() => {
        if (!done) finish({ op: 'error', message: 'the vault could not scrub the response' });
      });
  };
  const take = async (data: ResponsePart) => {
    if (done || !data || typeof data !== 'object') return;
    switch (data.op) {
      case 'response':
        send({
          op: 'response',
          status: Number.isSafeInteger(data.status) ? data.status : 0,
          statusText: text(data.statusText),
          url: text(data.url),
          ...(typeof data.redirected === 'boolean' && { redirected: data.redirected }),
          headers:
            Array.isArray(data.headers) && isDense(data.headers)
              ? data.headers.filter((h) => Array.isArray(h)).map(([name, value]): [string, string] => [text(name), text(value)])
              : [],
        });
        break;
      case 'body': {
        if (!(data.chunk instanceof Uint8Array)) return;
        clearTimeout(idle);
        // Piece by piece, each piece's release sent as it is scrubbed: no slice copies the whole chunk.
        const tick = slicer();
        for (const piece of bytePieces(data.chunk)) {
          sendBody(body.push(piece));
          await tick();
        }
        if (!done) idle = setTimeout(release, IDLE_MS);
        break;
      }
      case 'end':
        finish({ op: 'end' });
        break;
      case 'error':
        finish({ op: 'error', message: text(data.message) });
        break;
    }
  };
}
