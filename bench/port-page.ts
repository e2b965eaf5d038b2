// Runs in Chromium on the embedder origin: `status` round trips through the real gateway, next to
// the same number through a bare MessageChannel echo on the vault origin, measured in one run.
const vault = new URLSearchParams(location.search).get('vault')!;
/** The bare echo: beside the built documents at /echo.html, else the development one. */
const ECHO = new URLSearchParams(location.search).get('echo') ?? '/bench/echo.html';
/** The floor the hosting contract sets for a boot: the echo, answering once it has read the two settings files and opened a database. */
const FLOOR = new URLSearchParams(location.search).get('floor') ?? '/bench/floor.html';

/** Embeds `path` of the vault's origin and says hello: the frame and its port, once welcomed. */
async function embed(path: string, role = 'page'): Promise<{ frame: HTMLIFrameElement; port: MessagePort }> {
  const frame = document.createElement('iframe');
  frame.src = `${vault}${path}`;
  document.body.append(frame);
  await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  const channel = new MessageChannel();
  const welcome = new Promise((resolve) => (channel.port1.onmessage = resolve));
  frame.contentWindow!.postMessage({ type: 'slicc-vault', v: 1, op: 'hello', role }, vault, [channel.port2]);
  await welcome;
  return { frame, port: channel.port1 };
}

async function open(path: string, role = 'page'): Promise<MessagePort> {
  return (await embed(path, role)).port;
}

let ids = 1e9;

/** Sequential round trips (one in flight) and pipelined ones (all sent at once), per second; events are not replies. */
async function measure(port: MessagePort, count: number) {
  let id = ids;
  ids += 2 * count;
  const next = () =>
    new Promise((resolve) => {
      const want = ++id;
      port.onmessage = ({ data }) => data?.id === want && resolve(data);
      port.postMessage({ v: 1, id: want, op: 'status' });
    });
  let start = performance.now();
  for (let i = 0; i < count; i++) await next();
  const sequential = count / ((performance.now() - start) / 1000);
  start = performance.now();
  await new Promise<void>((resolve) => {
    let left = count;
    port.onmessage = ({ data }) => typeof data?.id === 'number' && --left === 0 && resolve();
    for (let i = 0; i < count; i++) port.postMessage({ v: 1, id: ++id, op: 'status' });
  });
  const pipelined = count / ((performance.now() - start) / 1000);
  return { sequential, pipelined };
}

type Rates = Awaited<ReturnType<typeof measure>>;
/** Two measures of the same count as one: requests over the time both took. */
const both = ([a, b]: Rates[]): Rates => ({
  sequential: 2 / (1 / a!.sequential + 1 / b!.sequential),
  pipelined: 2 / (1 / a!.pipelined + 1 / b!.pipelined),
});

/** One request and its reply (events that come meanwhile are not it). */
function ask(port: MessagePort, message: { id: number; [field: string]: unknown }): Promise<any> {
  return new Promise((resolve) => {
    port.onmessage = ({ data }) => data?.id === message.id && resolve(data);
    port.postMessage(message);
  });
}

/** Seeded (mulberry32): every run measures the same values, since a scan's speed depends a little on them. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** API-key-like values, as the scrubber bench's tokens: the same for the same seed. */
function tokens(count: number, seed = 1): string[] {
  const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const random = seeded(seed);
  const pick = () => alnum[Math.floor(random() * alnum.length)];
  return Array.from({ length: count }, () => `sk-${Array.from({ length: 16 + Math.floor(random() * 48) }, pick).join('')}`);
}

/** Log-like ASCII text with a value in about one line of 500. */
function text(bytes: number, values: string[]): string {
  const words = 'the request response error value data item config server client token session cache retry status'.split(' ');
  let out = '';
  for (let i = 0; out.length < bytes; i++) {
    out += `2026-11-30T10:00:${String(i % 60).padStart(2, '0')}Z INFO [worker-${i % 8}] GET /api/v1/${words[i % words.length]}/${i} 200 ${i % 900}ms`;
    out += i % 500 === 7 ? ` key=${values[i % values.length]}\n` : ` ${words[(i * 7) % words.length]} ${words[(i * 3) % words.length]}\n`;
  }
  return out.slice(0, bytes);
}

/**
 * `redact` through the agent port of a namespace with `valueCount` values, against the same
 * messages through the bare echo and the floor (bench/floor.ts): `runs` runs of `mib` MiB each
 * side (16 texts per request, one request in flight), the sides taking turns to go first; MiB/s,
 * the medians of the runs.
 */
(window as any).runRedact = async (mib: number, valueCount: number, runs: number) => {
  const page = await open('/');
  const values = tokens(valueCount);
  let id = 1;
  for (const [i, value] of values.entries()) await ask(page, { v: 1, id: id++, op: 'put', name: `BENCH_${i}`, value });
  const agent = await open('/', 'agent');
  const echo = await open(ECHO);
  const floor = await open(FLOOR);
  const texts = Array.from({ length: 16 }, () => text(64 * 1024, values));
  const perRequest = 16 * 64 * 1024;
  const rounds = Math.max(1, Math.round((mib * 2 ** 20) / perRequest));
  // Adding 1,000 values leaves garbage (each \`put\` posts every record's view): measuring at once
  // would charge its collection to whichever side runs first.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const measure = async (port: MessagePort) => {
    let hits = 0;
    // The embedder and its same-site frames share one heap: without this, a side could pay for
    // collecting the other's garbage (a major collection is 20-60 ms here, a run 80-200 ms).
    (globalThis as { gc?: () => void }).gc?.();
    const start = performance.now();
    for (let i = 0; i < rounds; i++) {
      const reply = await ask(port, { v: 1, id: id++, op: 'redact', texts });
      hits += reply.hits?.reduce((n: number, h: { count: number }) => n + h.count, 0) ?? 0;
    }
    return { rate: (rounds * perRequest) / 2 ** 20 / ((performance.now() - start) / 1000), hits };
  };
  await measure(agent); // warm up
  await measure(echo);
  await measure(floor);
  const rates = { vault: [] as number[], echo: [] as number[], floor: [] as number[] };
  let hits = 0;
  // `--profile` of bench/port.bench.mjs records the measuring (a no-op without a profiler).
  console.profile('redact');
  for (let run = 0; run < runs; run++) {
    // Whichever side goes second may pay for the first's garbage: they take turns.
    const order = run % 2 === 0 ? [agent, echo, floor] : [floor, echo, agent];
    for (const port of order) {
      const { rate, hits: h } = await measure(port);
      if (port === agent) {
        rates.vault.push(rate);
        hits = h;
      } else (port === echo ? rates.echo : rates.floor).push(rate);
    }
  }
  console.profileEnd('redact');
  return {
    redact: median(rates.vault),
    echo: median(rates.echo),
    floor: median(rates.floor),
    rates,
    hits,
    values: valueCount,
    mib: (rounds * perRequest) / 2 ** 20,
    runs,
  };
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** Milliseconds from adding a frame of `path` to its `welcome` (then the frame goes). */
async function boot(path: string): Promise<number> {
  const start = performance.now();
  const { frame, port } = await embed(path);
  const ms = performance.now() - start;
  port.close();
  frame.remove();
  return ms;
}

type Asking = () => { id: number; [field: string]: unknown };

/** Milliseconds from a request to its reply, one in flight. */
async function timed(port: MessagePort, message: Asking): Promise<number> {
  const start = performance.now();
  await ask(port, message());
  return performance.now() - start;
}

/** The mean of `size` sequential round trips: the page's timer ticks in 5 µs steps (cross-origin isolated), a quarter of one push; a batch of 10 tells half a microsecond. */
async function batchMean(port: MessagePort, message: Asking, size = 10): Promise<number> {
  const start = performance.now();
  for (let k = 0; k < size; k++) await ask(port, message());
  return (performance.now() - start) / size;
}

/** Boots of the frame and of the echo document, `n` each, taking turns to go first. */
async function boots(n: number, turn: number) {
  const out = { vault: [] as number[], echo: [] as number[], floor: [] as number[] };
  const sides = [
    ['/', out.vault],
    [ECHO, out.echo],
    [FLOOR, out.floor],
  ] as const;
  for (let k = 0; k < n; k++) {
    // Each side goes first, second and third in turn.
    for (let s = 0; s < sides.length; s++) {
      const [path, times] = sides[(turn + k + s) % sides.length]!;
      times.push(await boot(path));
    }
  }
  return out;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Frame boot to `welcome` in a namespace with no records (a fresh profile: its first boot makes
 * the key and is not counted), against the echo document's, `runs` runs of three boots each side.
 */
(window as any).runBootEmpty = async (runs: number) => {
  // The first boot of a profile makes the key (a device slot and its check value): timed, not counted.
  const first = await boot('/');
  await boot(ECHO);
  await boot(FLOOR);
  const ratios: number[] = [];
  const floorRatios: number[] = [];
  const all = { vault: [] as number[], echo: [] as number[], floor: [] as number[] };
  for (let run = 0; run < runs; run++) {
    const b = await boots(3, run);
    all.vault.push(median(b.vault));
    all.echo.push(median(b.echo));
    all.floor.push(median(b.floor));
    ratios.push(median(b.vault) / median(b.echo));
    floorRatios.push(median(b.floor) / median(b.echo));
  }
  return { vault: median(all.vault), echo: median(all.echo), floor: median(all.floor), ratio: median(ratios), floorRatio: median(floorRatios), first };
};

/**
 * The vault core's figures (README, Benchmarks) in a namespace of `records` records, each the
 * median over `runs` runs of the ratio to its baseline measured in the same run and page: `status`
 * one in flight and 1,000 pipelined against the bare echo; a 1 KiB `push`'s p50 and p99 against a
 * 1 KiB echo; `put` of a new name, p50 and p99, against the bare IndexedDB write (the two taking
 * turns, a request each); frame boot to `welcome` against the echo document's. Beside them, the
 * floors of `status`, `put` and boot (bench/floor.ts) against the same baselines.
 */
(window as any).runCore = async (records: number, runs: number) => {
  const page = await open('/');
  const values = tokens(records);
  let id = 1;
  for (const [i, value] of values.entries()) await ask(page, { v: 1, id: id++, op: 'put', name: `BENCH_${i}`, value });
  const echo = await open(ECHO);
  // The floors of `status` and `put` (bench/floor.ts): the vault's status as it replies it, and a
  // namespace of as many records.
  const floor = await open(FLOOR);
  await ask(floor, { v: 1, id: id++, op: 'seed', records });
  await ask(floor, { v: 1, id: id++, op: 'shape', status: (await ask(page, { v: 1, id: id++, op: 'status' })).status });
  const agent = await open('/', 'agent');
  const chunk = new TextEncoder().encode(text(1024, values));
  const ratios: Record<string, number[]> = {
    sequential: [],
    pipelined: [],
    sequentialFloor: [],
    pipelinedFloor: [],
    pushP50: [],
    pushP99: [],
    putP50: [],
    putP99: [],
    putFloorP50: [],
    boot: [],
    bootFloor: [],
  };
  const raw: Record<string, number[]> = {
    pushP50: [],
    pushEchoP50: [],
    putP50: [],
    putP99: [],
    writeP50: [],
    writeP99: [],
    putFloorP50: [],
    boot: [],
    bootEcho: [],
    bootFloor: [],
  };
  await measure(page, 200);
  await measure(echo, 200);
  await measure(floor, 200);
  await ask(agent, { v: 1, id: id++, op: 'redactStream', stream: 'bench' });
  // Warmed up as status is: the first run's pushes were 0.2 to 0.3× slower beside the echo's.
  for (let b = 0; b < 20; b++) {
    await batchMean(agent, () => ({ v: 1, id: id++, op: 'push', stream: 'bench', chunk }));
    await batchMean(echo, () => ({ v: 1, id: id++, op: 'push', stream: 'bench', chunk }));
  }
  let fresh = 0;
  for (let run = 0; run < runs; run++) {
    // Each side warmed up, then measured in turns (ABBA): the first measure after
    // the last run's boots is slow, whichever side it is, and that alone moved alternate runs'
    // ratios by 0.3×. The vault and the floor take turns to open, the echo between them.
    const [x, y, z] = run % 2 === 0 ? [page, echo, floor] : [floor, echo, page];
    for (const port of [x, y, z]) await measure(port, 200);
    // On a collected heap, as `redact`'s runs: 1,000 pipelined take 15 ms, and the boots' garbage
    // collected in one of them halved two runs' ratios in every bench.
    (globalThis as { gc?: () => void }).gc?.();
    const turns = new Map<MessagePort, Rates[]>([x, y, z].map((port) => [port, []]));
    for (const port of [x, y, z, z, y, x]) turns.get(port)!.push(await measure(port, 1000));
    const [v, e, fl] = [both(turns.get(page)!), both(turns.get(echo)!), both(turns.get(floor)!)];
    ratios.sequential!.push(v.sequential / e.sequential);
    ratios.pipelined!.push(v.pipelined / e.pipelined);
    ratios.sequentialFloor!.push(fl.sequential / e.sequential);
    ratios.pipelinedFloor!.push(fl.pipelined / e.pipelined);
    const pushed: number[] = [];
    const echoed: number[] = [];
    // Interleaved a batch at a time, so whatever else holds the machine holds both alike.
    for (let b = 0; b < 100; b++) {
      pushed.push(await batchMean(agent, () => ({ v: 1, id: id++, op: 'push', stream: 'bench', chunk })));
      echoed.push(await batchMean(echo, () => ({ v: 1, id: id++, op: 'push', stream: 'bench', chunk })));
    }
    ratios.pushP50!.push(median(pushed) / median(echoed));
    ratios.pushP99!.push(percentile(pushed, 0.99) / percentile(echoed, 0.99));
    raw.pushP50!.push(median(pushed));
    raw.pushEchoP50!.push(median(echoed));
    // The pushes' garbage would be collected during the first writes: let it go first.
    await pause(1000);
    // `--profile` of bench/port.bench.mjs records the puts (a no-op without a profiler).
    if (run === 0) console.profile('put');
    const puts: number[] = [];
    const writes: number[] = [];
    const floors: number[] = [];
    for (let k = 0; k < 100; k++) {
      const name = `NEW_${fresh++}`;
      const value = tokens(1, id)[0]!;
      puts.push(await timed(page, () => ({ v: 1, id: id++, op: 'put', name, value })));
      writes.push(await timed(echo, () => ({ v: 1, id: id++, op: 'put', name, value })));
      floors.push(await timed(floor, () => ({ v: 1, id: id++, op: 'put', name, value })));
    }
    if (run === 0) console.profileEnd('put');
    ratios.putP50!.push(median(puts) / median(writes));
    ratios.putP99!.push(percentile(puts, 0.99) / percentile(writes, 0.99));
    raw.putP50!.push(median(puts));
    raw.putP99!.push(percentile(puts, 0.99));
    raw.writeP50!.push(median(writes));
    raw.writeP99!.push(percentile(writes, 0.99));
    ratios.putFloorP50!.push(median(floors) / median(writes));
    raw.putFloorP50!.push(median(floors));
    // A new value ends the stream (EAGAIN): open it again for the next run.
    await ask(agent, { v: 1, id: id++, op: 'drop', stream: 'bench' });
    await ask(agent, { v: 1, id: id++, op: 'redactStream', stream: 'bench' });
    // The puts' compile and garbage would land on whichever boot came first: let them go.
    await pause(1000);
    const booted = await boots(3, run);
    ratios.boot!.push(median(booted.vault) / median(booted.echo));
    raw.boot!.push(median(booted.vault));
    raw.bootEcho!.push(median(booted.echo));
    ratios.bootFloor!.push(median(booted.floor) / median(booted.echo));
    raw.bootFloor!.push(median(booted.floor));
  }
  const med = (xs: Record<string, number[]>) => Object.fromEntries(Object.entries(xs).map(([k, x]) => [k, median(x)]));
  return { records, runs, ratios: med(ratios), each: ratios, raw: med(raw) };
};

(window as any).runBench = async (count: number) => {
  const gateway = await open('/');
  const echo = await open('/bench/echo.html');
  await measure(gateway, 100); // warm up
  await measure(echo, 100);
  console.profile('status');
  const g = await measure(gateway, count);
  console.profileEnd('status');
  return { gateway: g, echo: await measure(echo, count) };
};
if (!crossOriginIsolated) throw new Error('the bench page must be cross-origin isolated, as bios is (bench/origins.mjs)');
(window as any).benchReady = true;
