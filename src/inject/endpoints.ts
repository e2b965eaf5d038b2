/**
 * Model and MCP endpoints: where the vault never injects. An entry is a host pattern (lower-case;
 * `*` is one label, or part of one as in `*-aiplatform.googleapis.com`) and a path prefix (`*` is
 * one segment, `/` is none). The built-in list is `endpoints.json`, written by
 * `scripts/endpoints.mjs`; registered model and MCP URLs join it through `toEndpoint`. Every
 * function takes the entries as a parameter, so this module imports no JSON.
 */
import type { Rule } from '../contract.ts';
import { textAt, wildcardMatches } from './match.ts';
import { percentDecode } from './urls.ts';

/** The refusal of an injection into a model or MCP endpoint (README, Model and MCP endpoints). */
export const ENDPOINT_REASON = 'host is a model or MCP endpoint; the vault never injects there';

export interface Endpoint {
  host: string;
  path: string;
  /** A built-in entry's pi-ai provider ids: the `model` records it fills in (README, Model and MCP endpoints). */
  providers?: readonly string[];
}

/** Hosts are compared lower-cased, without a trailing dot. */
export function normalizeHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** One host label against its pattern, in linear time. `*` may match nothing: refusing more is the safe side. */
const labelMatches = wildcardMatches;

/**
 * One path segment against its pattern: `*` is any run, and only what stands before the first `*`
 * and after the last is compared, so `a*b*c` reads as `a*c`. That refuses more, never less (the
 * safe side), and costs two string comparisons whatever the lengths: a registered pattern's middle
 * pieces, searched for in an 8 KiB segment, would be read once per registration (README, Model
 * and MCP endpoints).
 */
export function segmentMatches(pattern: string, segment: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === segment;
  return endsMatch(pattern.slice(0, star), pattern.slice(pattern.lastIndexOf('*') + 1), segment, 0, segment.length);
}
/** `text[from, to)` starts with `first` and ends with `last`, the two not overlapping. */
const endsMatch = (first: string, last: string, text: string, from: number, to: number) =>
  to - from >= first.length + last.length && textAt(text, first, from) && textAt(text, last, to - last.length);

/** An API version segment (`v1`, `v1beta`, `v2alpha`, `v1p1beta1`): as a prefix's first segment, it stands for every one. */
// `v`, a digit, then letters and digits: `v[0-9]+[a-z0-9]*` is the same set, but backtracks
// quadratically over a long run of digits that ends badly.
const VERSION = /^v[0-9][a-z0-9]*$/;
export const isVersionSegment = (segment: string) => VERSION.test(segment);

/** Both sides normalised: a registered entry written `API.Example.com.` still refuses. */
export function hostMatches(pattern: string, host: string): boolean {
  return labelsMatch(normalizeHost(pattern).split('.'), normalizeHost(host).split('.'));
}
function labelsMatch(pattern: readonly string[], labels: readonly string[]): boolean {
  if (pattern.length !== labels.length) return false;
  // Plain labels first: a cheap miss spares the wildcard ones.
  for (let i = pattern.length - 1; i >= 0; i--) if (!pattern[i].includes('*') && pattern[i] !== labels[i]) return false;
  return pattern.every((label, i) => labelMatches(label, labels[i]));
}

/**
 * The path read the broadest way, as the model and MCP refusal reads it (README, Model and MCP
 * endpoints): percent-decoded, lower-cased, split at `/` and `\`, each segment cut at its first
 * `;`, empty segments dropped. So `/%76%31/x`, `//v1/x`, `/v1;x/x` and `/V1/x` all read `v1, x`.
 */
export function broadSegments(path: string): string[] {
  const segments: string[] = [];
  for (const part of percentDecode(path).toLowerCase().replaceAll('\\', '/').split('/')) {
    const semicolon = part.indexOf(';');
    const segment = semicolon < 0 ? part : part.slice(0, semicolon);
    if (segment) segments.push(segment);
  }
  return segments;
}

/** A prefix's segments, read as the path is. */
const prefixSegments = (prefix: string) => broadSegments(prefix);

/** Segments under a prefix: each matches its pattern; a version first segment matches every version. */
function segmentsUnder(have: readonly string[], want: readonly string[]): boolean {
  if (want.length > have.length) return false;
  for (let i = want.length - 1; i >= 0; i--) if (!want[i].includes('*') && want[i] !== have[i] && !(i === 0 && isVersionSegment(want[0]))) return false;
  return want.every((w, i) => (i === 0 && isVersionSegment(w) ? isVersionSegment(have[0]) : segmentMatches(w, have[i])));
}

/** `path`, read the broadest way, starts with `prefix` segment by segment (`/v1/chat` is under `/v1`, `/v10x` too: a version). */
export function pathUnder(path: string, prefix: string): boolean {
  return segmentsUnder(broadSegments(path), prefixSegments(prefix));
}

/**
 * A path read the broadest way once per decision, for every entry: a text of `/` and a segment
 * after each (segments hold neither `/` nor `\\`), with where each segment starts and ends.
 */
interface Broad {
  text: string;
  start: Int32Array;
  end: Int32Array;
  /** Whether the first segment is an API version, once asked. */
  version?: boolean;
}
function readBroad(path: string): Broad {
  const d = percentDecode(path).toLowerCase();
  // Without `;`, `\\` or an empty segment, the decoded text is already `/` and a segment each.
  const plain = d.startsWith('/') && !d.includes('//') && !d.includes(';') && !d.includes('\\');
  const text = plain ? d : `/${broadSegments(path).join('/')}`;
  // Counted, then read: one pass each over character codes, arrays of the exact size.
  const last = text.length - 1; // a `/` there starts no segment
  let count = 0;
  for (let i = 0; i < last; i++) if (text.charCodeAt(i) === 0x2f) count++;
  const start = new Int32Array(count);
  const end = new Int32Array(count);
  for (let i = 0, k = -1; i <= last; i++) {
    if (text.charCodeAt(i) !== 0x2f) continue;
    if (k >= 0) end[k] = i;
    if (i < last) start[++k] = i + 1;
    else k = -1;
  }
  if (count > 0 && text.charCodeAt(last) !== 0x2f) end[count - 1] = text.length;
  return { text, start, end };
}

/**
 * An entry prepared once: its host's labels, and its path prefix as runs of literal segments
 * (compared as one string each) and wildcard segments (their literal pieces). Entries are
 * prepared on first use and kept with the entry object, re-prepared if its text changes.
 */
interface PreparedEntry {
  host: string;
  path: string;
  labels: string[];
  /** Segments in the prefix. */
  count: number;
  /** The first segment is a version: it stands for every version segment. */
  version: boolean;
  /** Literal segments i..j-1, joined by `/`. */
  runs: { i: number; j: number; text: string }[];
  /** Segments holding `*`: what stands before the first and after the last. */
  wild: { i: number; first: string; last: string }[];
}
const preparedEntries = new WeakMap<Endpoint, PreparedEntry>();

function prepareEntry(e: Endpoint): PreparedEntry {
  const cached = preparedEntries.get(e);
  if (cached && cached.host === e.host && cached.path === e.path) return cached;
  // The prefix read as a path is: its segments are slices of one text, so a run is one slice.
  const { text, start, end } = readBroad(e.path);
  const count = start.length;
  const version = count > 0 && isVersionSegment(text.slice(start[0], end[0]));
  const runs: PreparedEntry['runs'] = [];
  const wild: PreparedEntry['wild'] = [];
  let i = version ? 1 : 0;
  const runTo = (j: number) => {
    if (j > i) runs.push({ i, j, text: text.slice(start[i], end[j - 1]) });
  };
  // Segments with `*`, found from each `*` (a registered URL holds at most 8).
  for (let star = text.indexOf('*', i < count ? start[i] : text.length), k = i; star >= 0; star = text.indexOf('*', end[k])) {
    while (end[k] < star) k++;
    runTo(k);
    const w = text.slice(start[k], end[k]);
    wild.push({ i: k, first: w.slice(0, w.indexOf('*')), last: w.slice(w.lastIndexOf('*') + 1) });
    i = k + 1;
  }
  runTo(count);
  const entry = { host: e.host, path: e.path, labels: normalizeHost(e.host).split('.'), count, version, runs, wild };
  preparedEntries.set(e, entry);
  return entry;
}

/** `segmentsUnder` on a prepared entry: literal runs first (one string comparison each), then wildcards. */
function broadUnder(have: Broad, e: PreparedEntry): boolean {
  if (e.count > have.start.length) return false;
  if (e.version) {
    have.version ??= isVersionSegment(have.text.slice(have.start[0], have.end[0]));
    if (!have.version) return false;
  }
  for (let r = 0; r < e.runs.length; r++) {
    const { i, j, text } = e.runs[r];
    if (have.end[j - 1] - have.start[i] !== text.length || !textAt(have.text, text, have.start[i])) return false;
  }
  for (let w = 0; w < e.wild.length; w++) {
    const { i, first, last } = e.wild[w];
    if (!endsMatch(first, last, have.text, have.start[i], have.end[i])) return false;
  }
  return true;
}

/** The URL under some entry: its host label by label, its path read the broadest way. */
export function matchesEndpoint(url: URL, entries: readonly Endpoint[]): boolean {
  const labels = normalizeHost(url.hostname).split('.');
  let have: Broad | undefined;
  for (const entry of entries) {
    const e = prepareEntry(entry);
    if (!labelsMatch(e.labels, labels)) continue;
    have ??= readBroad(url.pathname);
    if (broadUnder(have, e)) return true;
  }
  return false;
}

/** Every entry the URL is under, read as `matchesEndpoint` reads it. */
export function endpointsUnder(url: URL, entries: readonly Endpoint[]): Endpoint[] {
  const labels = normalizeHost(url.hostname).split('.');
  let have: Broad | undefined;
  const under: Endpoint[] = [];
  for (const entry of entries) {
    const e = prepareEntry(entry);
    if (!labelsMatch(e.labels, labels)) continue;
    have ??= readBroad(url.pathname);
    if (broadUnder(have, e)) under.push(entry);
  }
  return under;
}

/**
 * True when every URL the rule allows is under some entry: its domain matches, and the entry has
 * no path prefix or each of the rule's path globs stays under it. A rule with no paths allows any
 * path, so only a `/` entry covers it. When a glob might leave the prefix, the answer is false:
 * the request-time check still refuses what lands on an endpoint.
 */
export function ruleOnlyReachesEndpoints(rule: Rule, entries: readonly Endpoint[]): boolean {
  return ruleCoveredBy(
    rule,
    entries.filter((e) => hostMatches(e.host, rule.domain)),
  );
}

/**
 * The entries on a domain, their host labels split once: for reading many rules against the same
 * entries (thousands of rules against every built-in and registered endpoint) in linear time.
 */
export function entriesByDomain(entries: readonly Endpoint[]): (domain: string) => Endpoint[] {
  // Grouped by label count and last label; an entry whose last label has a `*` is tried for every domain.
  const groups = new Map<string, { entry: Endpoint; labels: string[] }[]>();
  const anyLast: { entry: Endpoint; labels: string[] }[] = [];
  const keyOf = (labels: readonly string[]) => `${labels.length}.${labels[labels.length - 1]}`;
  for (const entry of entries) {
    const labels = normalizeHost(entry.host).split('.');
    if (labels[labels.length - 1]!.includes('*')) anyLast.push({ entry, labels });
    else {
      const key = keyOf(labels);
      groups.set(key, [...(groups.get(key) ?? []), { entry, labels }]);
    }
  }
  return (domain) => {
    const labels = normalizeHost(domain).split('.');
    const candidates = [...(groups.get(keyOf(labels)) ?? []), ...anyLast];
    return candidates.filter((s) => labelsMatch(s.labels, labels)).map((s) => s.entry);
  };
}

/** `ruleOnlyReachesEndpoints` given the entries whose host matches the rule's domain. */
export function ruleCoveredBy(rule: Rule, onHost: readonly Endpoint[]): boolean {
  if (onHost.some((e) => prefixSegments(e.path).length === 0)) return true;
  return rule.paths.length > 0 && rule.paths.every((glob) => onHost.some((e) => globUnder(glob, e.path)));
}

function globUnder(glob: string, prefix: string): boolean {
  const want = prefixSegments(prefix);
  // The glob's segments as written, but for the leading `/`; a literal one is read the broad way.
  const have = glob.split('/').slice(1);
  return (
    want.length <= have.length &&
    want.every((w, i) => {
      const g = have[i];
      if (g.includes('**')) return false;
      if (/[*?]/.test(g)) return w === '*';
      const read = broadSegments(g);
      if (read.length !== 1) return false;
      return i === 0 && isVersionSegment(w) ? isVersionSegment(read[0]) : segmentMatches(w, read[0]);
    })
  );
}

/** A registered model or MCP base URL as an entry; null when it isn't a URL. */
export function toEndpoint(url: string): Endpoint | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const path = parsed.pathname.split('/').filter(Boolean).join('/');
  return { host: normalizeHost(parsed.hostname), path: `/${path}` };
}
