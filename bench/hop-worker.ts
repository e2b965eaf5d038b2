// The worker side of bench/hop.bench.mjs: a scrubber of the values it is given, scanning the
// chunks posted to it as a stream (as a `push` does), or echoing them untouched.
import { compileScrubber, type ScrubStream } from '../src/scrub/index.ts';

let stream: ScrubStream | null = null;
const scope = globalThis as unknown as { onmessage: ((e: MessageEvent) => void) | null; postMessage(m: unknown, t?: Transferable[]): void };
scope.onmessage = ({ data }) => {
  if (data.values) {
    stream = compileScrubber(data.values).stream();
    scope.postMessage('ready');
  } else if (data.scan) {
    const out = stream!.push(data.scan).slice();
    scope.postMessage(out, [out.buffer]);
  } else scope.postMessage(data.echo, [data.echo.buffer]);
};
