// The scrubber benchmark itself, bundled by bench/scrub.bench.mjs and run both in Node and in
// Chromium: the same seeded text and values, the scrubber next to its baselines.
import AhoCorasick from 'modern-ahocorasick';
import { compileScrubber } from '../src/scrub/index.ts';

export { compileScrubber };

const MiB = 1 << 20;
const enc = new TextEncoder();

export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SYMBOLS = ALNUM + '!#$%&*+-./:;=?@^_~"\\ ';
const WIDE = ['ä', 'ö', 'ß', 'é', 'ñ', 'Ж', 'λ', '日', '本', '語', '🔑'];

/** Secrets as they come: API-key-like tokens, passwords with symbols, a few with non-ASCII. */
export function makeValues(count, seed = 1) {
  const r = prng(seed);
  const pick = (s) => s[Math.floor(r() * s.length)];
  const prefixes = ['sk-', 'ghp_', 'xoxb-', 'AKIA', 'glpat-', ''];
  return Array.from({ length: count }, (_, i) => {
    const kind = r();
    let value = '';
    if (kind < 0.7) {
      value = pick(prefixes);
      for (let n = 16 + Math.floor(r() * 48); n > 0; n--) value += pick(ALNUM);
    } else if (kind < 0.9) {
      for (let n = 8 + Math.floor(r() * 24); n > 0; n--) value += pick(SYMBOLS);
    } else {
      for (let n = 8 + Math.floor(r() * 20); n > 0; n--) value += r() < 0.3 ? pick(WIDE) : pick(ALNUM);
    }
    return { name: `SECRET_${i}`, placeholder: `SLICC_SECRET_${i.toString(36).toUpperCase()}_PLACEHOLDER`, value };
  });
}

const WORDS =
  'the of and to in is for on that with as by this from at are be or an it not which have has we can will one all would there their what so up out if about who get them make like time just know take into year your good some could see other than then now look only come its over think also back after use two how our work first well way even new want because any these give day most us user request response error value data item config server client token session cache retry status'.split(
    ' ',
  );
const IDENTS =
  'handler request response config options result items value index count buffer stream reader writer client server cache token session state props context payload headers body status'.split(
    ' ',
  );
const WIDE_TEXT = ['Größe der Datei', 'résumé été', 'данные пользователя', 'ユーザー設定を保存しました', '配置文件已更新', 'λόγος', '✓ done 🚀'];

/** `size` bytes of JSON, logs and source code, with a value form planted now and then. */
export function makeText(size, values, seed = 2) {
  const r = prng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const int = (n) => Math.floor(r() * n);
  const hex = (n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[int(16)];
    return s;
  };
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const b64 = (s) => btoa(String.fromCharCode(...enc.encode(s)));
  const hexOf = (s) => Array.from(enc.encode(s), (b) => b.toString(16).padStart(2, '0')).join('');
  const utf16 = (s) => Array.from({ length: s.length }, (_, i) => String.fromCharCode(s.charCodeAt(i) & 255, s.charCodeAt(i) >> 8)).join('');
  const planted = (v) => {
    switch (int(19)) {
      case 0:
        return `Authorization: Basic ${b64(`user:${v.value}`)}`;
      case 1:
        return `"apiKey": ${JSON.stringify(v.value)}`;
      case 2:
        return `https://api.example.com/v1?key=${encodeURIComponent(v.value)}`;
      case 3:
        return `blob=${b64(`${words(2)} ${v.value} ${words(2)}`)}`;
      // The forms issue 13 added: mixed-case hex, lower-case %xx, form encoding, PHP's \/ with
      // ASCII-only \uXXXX in upper case, Go's \u003c, and base64 wrapped at 76 columns.
      case 4:
        return `digest ${hexOf(v.value).replace(/[a-f]/g, (c) => (r() < 0.5 ? c.toUpperCase() : c))}`;
      case 5:
        return `curl -d 'token=${encodeURIComponent(v.value).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())}'`;
      case 6:
        return `body=${new URLSearchParams({ secret: v.value })}`;
      case 7:
        return `{"key":"${JSON.stringify(v.value)
          .slice(1, -1)
          .replace(/\//g, '\\/')
          .replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)}"}`;
      case 8:
        return `{"key":"${JSON.stringify(v.value)
          .slice(1, -1)
          .replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)}"}`;
      case 9:
        return b64(`-----\n${words(8)} ${v.value} ${words(8)}`).replace(/(.{76})/g, '$1\n');
      // Issue 27's: \xNN, separated hex (xxd -g1, MAC style), PowerShell's -EncodedCommand, fold,
      // xxd -p at 60 columns, and a JSON escape among the first bytes.
      case 10:
        return `echo -e '${Array.from(enc.encode(v.value), (b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}'`;
      case 11:
        return `00000000: ${hexOf(v.value).replace(/(..)(?!$)/g, '$1 ')}`;
      case 12:
        return `mac ${hexOf(v.value)
          .toUpperCase()
          .replace(/(..)(?!$)/g, '$1:')}`;
      case 13:
        return `powershell -EncodedCommand ${btoa(utf16(`$env:TOKEN='${v.value}'; ${words(3)}`))}`;
      case 14:
        return v.value.replace(/(.{20})/gu, '$1\n');
      case 15:
        return hexOf(`${words(4)} ${v.value}`).replace(/(.{60})/g, '$1\n');
      case 16:
        return `{"key":"${JSON.stringify(v.value.slice(0, 3)).slice(1, -1)}\\u${v.value.charCodeAt(3).toString(16).padStart(4, '0')}${JSON.stringify(v.value.slice(4)).slice(1, -1)}"}`;
      default:
        return `export TOKEN=${v.value}`;
    }
  };
  const lines = [
    () =>
      JSON.stringify({
        id: int(1e6),
        user: pick(IDENTS),
        email: `${pick(IDENTS)}@example.com`,
        trace: hex(32),
        tags: [pick(WORDS), pick(WORDS)],
        note: words(6),
        created: `2026-11-${10 + int(20)}T10:${10 + int(50)}:00Z`,
        ok: r() < 0.9,
      }),
    () =>
      `2026-11-30T10:${10 + int(50)}:${10 + int(50)}.${100 + int(900)}Z ${pick(['INFO', 'WARN', 'DEBUG', 'ERROR'])} [worker-${int(8)}] ${pick(['GET', 'POST', 'PUT'])} /api/v1/${pick(IDENTS)}/${int(1e5)} ${pick([200, 201, 304, 404, 500])} ${int(900)}ms req=${hex(8)}-${hex(4)}-${hex(4)}-${hex(12)}`,
    () =>
      `  ${pick(['const', 'let', 'return', 'if (', 'await'])} ${pick(IDENTS)}${pick(['.', ' = ', '('])}${pick(IDENTS)}(${pick(IDENTS)}, { ${pick(IDENTS)}: ${int(100)} }); // ${words(4)}`,
    () =>
      `function ${pick(IDENTS)}${int(100)}(${pick(IDENTS)}) {\n    for (let i = 0; i < ${pick(IDENTS)}.length; i++) ${pick(IDENTS)}[i] = '${words(2)}';\n  }`,
    () => `${words(10 + int(10))}. ${pick(WIDE_TEXT)}`,
  ];
  const out = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    let block = '';
    while (block.length < 256 * 1024) block += (values.length && r() < 0.002 ? planted(pick(values)) : pick(lines)()) + '\n';
    at += enc.encodeInto(block, out.subarray(at)).written;
  }
  // A cut multi-byte character at the end would be decoded as U+FFFD; end on ASCII.
  for (let i = size - 4; i < size; i++) if (out[i] > 0x7f) out[i] = 0x20;
  return out;
}

/**
 * `size` characters of log lines or of JSON lines (`kind`), a value in about one line of 500: log
 * lines as the port bench writes them (`key=VALUE`), JSON lines with the value inside a JSON string
 * as `JSON.stringify` writes it (every fourth with its first character as `\uXXXX`), and in every
 * line a quoted word and a line break escaped, so the JSON view is read throughout.
 */
export function makeLines(size, values, kind, seed = 3) {
  const r = prng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const int = (n) => Math.floor(r() * n);
  let out = '';
  while (out.length < size) {
    const planted = values.length && int(500) === 0 ? pick(values).value : null;
    const time = `2026-11-30T10:${10 + int(50)}:${10 + int(50)}.${100 + int(900)}Z`;
    const path = `/api/v1/${pick(IDENTS)}/${int(1e5)}`;
    if (kind === 'log') {
      out += `${time} ${pick(['INFO', 'WARN', 'DEBUG'])} [worker-${int(8)}] GET ${path} 200 ${int(900)}ms ${planted ? `key=${planted}` : `${pick(WORDS)} ${pick(WORDS)}`}\n`;
      continue;
    }
    const line = { time, level: pick(['info', 'warn', 'debug']), msg: `GET ${path}`, status: 200, ms: int(900), note: `${pick(WORDS)} "${pick(WORDS)}"\n` };
    if (planted) line.env = `TOKEN=${planted}`;
    let json = JSON.stringify(line);
    const at = json.indexOf('TOKEN=') + 6;
    // Not where JSON escaped the first character already (`\\`, `\"`).
    if (planted && int(4) === 0 && json[at] !== '\\') {
      json = `${json.slice(0, at)}\\u${json.charCodeAt(at).toString(16).padStart(4, '0')}${json.slice(at + 1)}`;
    }
    out += `${json}\n`;
  }
  return out.slice(0, size);
}

/**
 * The forms the scrubber catches, as fixed strings for the baselines (which can't fold case, decode
 * escapes or skip line breaks): both hex cases, each URL encoder with either case of %XX, each JSON
 * writer with either case of \uXXXX, \xNN and hex with each separator in both cases, UTF-16LE base64.
 */
export function patternStrings(values) {
  // The scrubber doesn't expose its patterns (they are values); rebuild the main ones.
  const set = new Set();
  for (const v of values) {
    const raw = enc.encode(v.value);
    set.add(v.value);
    for (let a = 0; a < 3; a++) {
      const buf = new Uint8Array(a + raw.length);
      buf.set(raw, a);
      const full = btoa(String.fromCharCode(...buf));
      const mid = full.slice(Math.ceil((8 * a) / 6), Math.floor((8 * (a + raw.length)) / 6));
      set.add(mid);
      set.add(mid.replace(/\+/g, '-').replace(/\//g, '_'));
    }
    const hex = Array.from(raw, (b) => b.toString(16).padStart(2, '0')).join('');
    set.add(hex).add(hex.toUpperCase());
    const quoteAll = encodeURIComponent(v.value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    for (const url of [encodeURIComponent(v.value), new URLSearchParams({ q: v.value }).toString().slice(2), quoteAll]) {
      set.add(url).add(url.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()));
    }
    const json = JSON.stringify(v.value).slice(1, -1);
    const u = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    const ascii = json.replace(/[^\0-\x7f]/g, u);
    const every = [...v.value].map((c) => Array.from({ length: c.length }, (_, i) => u(c[i])).join('')).join('');
    for (const j of [json, json.replace(/[<>&]/g, u), ascii, ascii.replace(/\//g, '\\/'), every]) {
      set.add(j).add(j.replace(/\\u[0-9a-f]{4}/g, (e) => `\\u${e.slice(2).toUpperCase()}`));
    }
    // \xNN and separated hex in both cases, UTF-16LE base64's stable middles.
    const xs = Array.from(raw, (b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
    set.add(xs).add(xs.toUpperCase().replace(/\\X/g, '\\x'));
    for (const sep of [' ', ':', '-']) {
      const pairs = hex.replace(/(..)(?!$)/g, `$1${sep}`);
      set.add(pairs).add(pairs.toUpperCase());
    }
    const wide = Uint8Array.from(
      Array.from({ length: 2 * v.value.length }, (_, i) => (i % 2 ? v.value.charCodeAt(i >> 1) >> 8 : v.value.charCodeAt(i >> 1) & 255)),
    );
    for (let a = 0; a < 3; a++) {
      const buf = new Uint8Array(a + wide.length);
      buf.set(wide, a);
      const mid = btoa(String.fromCharCode(...buf)).slice(Math.ceil((8 * a) / 6), Math.floor((8 * (a + wide.length)) / 6));
      if (mid.length >= 8) set.add(mid);
    }
  }
  return [...set];
}

function best(runs, fn) {
  let min = Infinity;
  let result;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = fn();
    min = Math.min(min, performance.now() - t0);
  }
  return { ms: min, result };
}

const rate = (bytes, ms) => bytes / MiB / (ms / 1000);

/**
 * The slow baselines run on a growing prefix of the text (1, 4, 16, 64 MiB) until one run takes
 * `enoughMs`; their rate is extrapolated from that prefix.
 */
function growing(text, enoughMs, fn) {
  for (let size = MiB; ; size *= 4) {
    const part = text.length > size ? text.slice(0, size) : text;
    const { ms } = best(1, () => fn(part));
    const bytes = enc.encode(part).length;
    if (ms >= enoughMs || part === text) return { rate: rate(bytes, ms), mib: part === text ? Infinity : bytes / MiB };
  }
}

/**
 * Runs the whole measurement. `gc` (Node with --expose-gc) makes the heap delta meaningful;
 * `memory()` returns used heap bytes where the platform can tell.
 */
export function runBench({ sizeMiB = 64, counts = [10, 100, 1000], log = () => {}, gc, memory } = {}) {
  const all = makeValues(Math.max(...counts));
  // The first compile in a fresh runtime runs cold, before the JIT has seen the code.
  const cold = best(1, () => compileScrubber(all)).ms;
  log(`cold compile of ${all.length} values: ${cold.toFixed(0)} ms`);
  const t0 = performance.now();
  const bytes = makeText(sizeMiB * MiB, all);
  log(`generated ${sizeMiB} MiB in ${Math.round(performance.now() - t0)} ms`);
  const decoded = best(3, () => new TextDecoder().decode(bytes));
  const text = decoded.result;
  const decodeRate = rate(bytes.length, decoded.ms);
  // modern-ahocorasick 3.3.0 turns superlinear on text with non-ASCII characters (grapheme
  // segmentation: 16 KiB take 0.2 s, 64 KiB 4.5 s), so it gets a copy with those replaced, and
  // the scrubber and TextDecoder are measured on that copy too.
  const ascii = text.replace(/[^\0-\x7f]/g, '?');
  const asciiBytes = enc.encode(ascii);
  const decodeAscii = rate(asciiBytes.length, best(3, () => new TextDecoder().decode(asciiBytes)).ms);
  log(`TextDecoder ${decodeRate.toFixed(0)} MiB/s, ASCII copy ${decodeAscii.toFixed(0)} MiB/s`);
  const rows = [];
  for (const count of counts) {
    const values = all.slice(0, count);
    gc?.();
    gc?.();
    const before = memory?.() ?? 0;
    const compiled = best(3, () => compileScrubber(values));
    const scrubber = compiled.result;
    gc?.();
    const heap = memory ? memory() - before : NaN;
    const scrub = best(3, () => scrubber.redactBytes(bytes));
    const scrubAscii = best(3, () => scrubber.redactBytes(asciiBytes));
    const stream = best(2, () => {
      const s = scrubber.stream();
      let n = 0;
      for (let i = 0; i < bytes.length; i += 64 * 1024) n += s.push(bytes.subarray(i, i + 64 * 1024)).length;
      return n + s.end().length;
    });
    const hits = scrub.result.hits.reduce((n, h) => n + h.count, 0);
    log(`${count} values: ${scrubber.patterns} patterns, scrub ${rate(bytes.length, scrub.ms).toFixed(0)} MiB/s, ${hits} hits`);

    const patterns = patternStrings(values);
    const ahoBuild = best(1, () => new AhoCorasick(patterns));
    const aho = growing(ascii, 1500, (part) => ahoBuild.result.replace(part, () => '[redacted]'));
    log(
      `${count} values: modern-ahocorasick ${aho.rate.toFixed(1)} MiB/s on ${Number.isFinite(aho.mib) ? `${aho.mib.toFixed(0)} MiB of` : 'all of'} the ASCII copy`,
    );
    const naive = growing(text, 300, (part) => {
      let found = 0;
      for (const p of patterns) for (let i = part.indexOf(p); i >= 0; i = part.indexOf(p, i + p.length)) found++;
      return found;
    });
    log(`${count} values: indexOf ${naive.rate.toFixed(1)} MiB/s on ${Number.isFinite(naive.mib) ? `${naive.mib.toFixed(1)} MiB` : 'all of it'}`);

    // `redact` of strings: log lines and JSON lines, with every value (encoded to UTF-8, as some
    // are past ASCII) and with the ASCII ones only (the string scan, as the port's values are).
    const asciiOnly = values.filter((v) => /^[\0-\x7f]*$/.test(v.value));
    const stringScrubber = compileScrubber(asciiOnly);
    const lines = {};
    for (const kind of ['log', 'json']) {
      const lineText = makeLines(sizeMiB * MiB, values, kind);
      const chars = lineText.length;
      lines[kind] = {
        all: rate(chars, best(3, () => scrubber.redact(lineText)).ms),
        ascii: rate(chars, best(3, () => stringScrubber.redact(lineText)).ms),
        hits: stringScrubber.redact(lineText).hits.reduce((n, h) => n + h.count, 0),
      };
    }
    log(
      `${count} values: redact MiB/s, log lines ${lines.log.all.toFixed(0)} (ASCII values ${lines.log.ascii.toFixed(0)}), JSON lines ${lines.json.all.toFixed(0)} (${lines.json.ascii.toFixed(0)})`,
    );

    rows.push({
      lines,
      asciiValues: asciiOnly.length,
      values: count,
      patterns: scrubber.patterns,
      compileMs: compiled.ms,
      tableBytes: scrubber.tableBytes,
      heapBytes: heap,
      scrub: rate(bytes.length, scrub.ms),
      scrubAscii: rate(asciiBytes.length, scrubAscii.ms),
      stream: rate(bytes.length, stream.ms),
      hits,
      decode: decodeRate,
      decodeAscii,
      aho: aho.rate,
      ahoSliceMiB: aho.mib,
      ahoBuildMs: ahoBuild.ms,
      naive: naive.rate,
      naiveSliceMiB: naive.mib,
    });
  }
  return { sizeMiB, coldCompileMs: cold, coldValues: all.length, rows };
}
