// One injection decision (README, Forward; Model and MCP endpoints), as fnox's proxy decides in
// one `authorize()` over its prepared plan: a pure function of the namespace's plan, a request
// read once, whether the vault is locked and the time. It routes the request (an MCP server's, a
// model endpoint's, else one for the rules), finds the head's placeholders once, and runs each
// check, written once below, in the order its route gives (docs/injector.md). It names the records
// whose values the fill needs and never sees a value: `fill.ts` puts them in.
import type { McpServerEntry, Rule } from '../contract.ts';
import { ENDPOINT_REASON, matchesEndpoint, normalizeHost } from './endpoints.ts';
import { basicCredentials, decodeBase64, utf8OrNull } from './basic.ts';
import { PathReader, preparedMatches } from './match.ts';
import { SECRET_TO_MCP, underServerUrl } from './mcp.ts';
import { MODEL_KEY_HEADERS, MODEL_NOWHERE, modelRequest } from './model.ts';
import type { InjectionPlan, PlanRecord, PolicyRule, PreparedRule } from './plan.ts';
import { type InjectRequest, checkHead } from './request.ts';
import { PLACEHOLDER_ANY_CASE as ANY_PLACEHOLDER, PLACEHOLDERS } from '../validate.ts';

/** Which decision a request gets: a secret's by the rules, a model key's by provider, an MCP credential's by server. */
export type Target = { kind: 'secret' } | { kind: 'model'; providers: string[] } | { kind: 'mcp'; servers: McpServerEntry[] };

/** What a decision reads besides the plan and the request. */
export interface Moment {
  locked: boolean;
  now: number;
}

/** A refusal of an expired value names it (`expired`): the page is asked to renew it (README, The agent's ops: refresh). */
export interface Refusal {
  inject: false;
  status: 403 | 502;
  reason: string;
  expired?: string;
}
export interface Use {
  name: string;
  rule: Rule;
  domain: string;
  method: string;
  path: string;
}
export interface ModelUse {
  name: string;
  provider: string;
}
/** A header the fill rewrites: its text (a Basic credential's decoded), and the records whose placeholders it holds. */
export interface HeaderFill {
  index: number;
  text: string;
  basic: { scheme: string } | null;
  records: PlanRecord[];
}
interface Common {
  inject: true;
  /** The records the fill needs the values of, by name, as first met. */
  names: string[];
  fills: HeaderFill[];
  domain: string;
  /** Upper-cased. */
  method: string;
  path: string;
}
export type Allowed = Common & ({ kind: 'secret'; uses: Use[] } | { kind: 'model'; uses: ModelUse[] } | { kind: 'mcp'; server: string });
export type Decision = Refusal | Allowed;

export const inertReason = (name: string) => `${name} is inert: /etc/fnox/config.toml doesn't hold its placeholder`;
/** Request-supplied text in a reason: one line, bounded. */
export const clean = (s: string) => s.replace(/[\x00-\x1f\x7f]/g, '?').slice(0, 200);
const refuse = (reason: string, status: 403 | 502 = 403): Refusal => ({ inject: false, status, reason });

/** A placeholder of this namespace in the head: one per time it appears. */
interface Sighting {
  fill: HeaderFill;
  /** The header's name, lower-cased. */
  header: string;
  record: PlanRecord;
}

/**
 * A placeholder may appear once in a request head, as fnox reads it (README, Forward): its sightings,
 * header by header, refuse the second, whether in the same header's value or in another header.
 */
class OncePerHead {
  private readonly first = new Map<string, number>();
  see(placeholder: string, index: number, name: string): string | null {
    const before = this.first.get(placeholder);
    if (before === undefined) {
      this.first.set(placeholder, index);
      return null;
    }
    return before === index ? `${name} appears twice in one header value` : `${name} appears in more than one header`;
  }
}

/** One decision's reading of its request: made once, read by every check. */
interface Reading {
  plan: InjectionPlan;
  request: InjectRequest;
  at: Moment;
  target: Target;
  url: URL;
  domain: string;
  method: string;
  path: string;
  sightings: Sighting[];
  /** The first header holding a placeholder in a Basic credential that doesn't decode (secret route only). */
  malformedBasic: boolean;
  once: OncePerHead;
  /** The rule that lets each sighting go (secret route). */
  rules: Map<Sighting, PolicyRule>;
  reader: PathReader | null;
}

type Whole = (c: Reading) => Refusal | null;
type Each = (s: Sighting, c: Reading) => Refusal | null;
/** A check of the whole request, or checks run over every sighting before the next stage. */
type Stage = Whole | Each[];

// The checks every route shares.
const encodedBodies: Whole = ({ request: { rawTraits, exit } }) =>
  rawTraits.encodedBodies ? refuse(`exit ${clean(exit)} has encoded bodies, which can't be scrubbed`, 502) : null;
const removed: Each = ({ record: r }) => (r.removedAt != null ? refuse(`${r.name} was removed`) : null);
const expired: Each = ({ record: r }, c) =>
  r.expiresAt != null && r.expiresAt <= c.at.now ? { ...refuse(`${r.name} expired; refreshing`), expired: r.name } : null;
const once: Each = ({ record: r, fill }, c) => {
  const twice = c.once.see(r.placeholder, fill.index, r.name);
  return twice ? refuse(twice) : null;
};
const redirects: Each = ({ record: r, header }, c) =>
  !c.request.rawTraits.manualRedirects && header !== 'authorization'
    ? refuse(`${r.name} may go only in authorization on an exit that follows redirects`)
    : null;
const locked: Whole = (c) => (c.sightings.length > 0 && c.at.locked ? refuse('vault is locked') : null);
/** Over the head as it stands: placeholders hold none, so only a value filled in can add one (checked again by the fill). */
export const controlChars = (headers: readonly [string, string][]): Refusal | null => {
  for (const [n, v] of headers) if (/[\r\n\0]/.test(n + v)) return refuse(`header ${clean(n.toLowerCase())} would contain CR, LF or NUL`);
  return null;
};
const headControlChars: Whole = (c) => controlChars(c.request.head.headers);

// A secret, by the rules.
const refusedEndpoint: Whole = (c) => (matchesEndpoint(c.url, c.plan.policy.refused) ? refuse(ENDPOINT_REASON) : null);
const malformedBasic: Whole = (c) => (c.malformedBasic ? refuse("Basic credential isn't base64 of UTF-8 user:password") : null);
const nonePresent: Whole = (c) => (c.sightings.length === 0 ? refuse('no placeholder of this vault') : null);
const secretOnly: Each = ({ record: r }) => (r.kind !== 'secret' ? refuse(`${r.name} is a ${r.kind} record; rules inject secrets only`) : null);
// Only `active` secrets (README, Records: state). Own entries only: a secret named `constructor` must not find Object's.
const active: Each = ({ record: r }, { plan: { policy } }) =>
  !Object.hasOwn(policy.secrets, r.name) || policy.secrets[r.name] !== r.placeholder ? refuse(inertReason(r.name)) : null;
const ruleAllowing: Each = (s, c) => {
  c.reader ??= new PathReader(c.path);
  const found = c.plan.policy.rules.get(s.record.name)?.find((p) => ruleAllows(p, c.domain, s.header, c.method, c.path, c.reader!));
  if (!found) return refuse(`no rule lets ${s.record.name} go in ${clean(s.header)} to ${clean(c.method)} ${c.domain}${clean(c.path)}`);
  c.rules.set(s, found.rule);
  return null;
};
const exitAllowed: Each = ({ record: r }, { plan: { policy }, request: { exit } }) => {
  const line = Object.hasOwn(policy.exits, r.name) ? policy.exits[r.name] : undefined;
  return line && !line.includes(exit) ? refuse(`${r.name} may not use exit ${clean(exit)}`) : null;
};

// A model key, by provider.
const modelKeyPresent: Whole = (c) => (c.sightings.some((s) => s.record.kind === 'model') ? null : refuse(ENDPOINT_REASON));
const modelOnly: Each = ({ record: r }) => (r.kind !== 'model' ? refuse(SECRET_TO_MCP) : null);
const modelBound: Each = ({ record: r }, c) => {
  const b = r.binding;
  if (b?.kind !== 'model') return refuse(`${r.name} is ${MODEL_NOWHERE}`);
  const bound = 'id' in b ? c.target.kind === 'model' && c.target.providers.includes(b.id) : underServerUrl(c.url, b.base);
  return bound ? null : refuse(`${r.name} is a credential of ${clean(r.provider!)}, not of this endpoint`);
};
const keyHeader: Each = ({ record: r, header }) =>
  MODEL_KEY_HEADERS.includes(header) ? null : refuse(`${r.name} may go only in ${MODEL_KEY_HEADERS.join(', ')}`);

// An MCP credential, by server.
const mcpOnly: Each = ({ record: r }) => (r.kind !== 'mcp' ? refuse(SECRET_TO_MCP) : null);
const serverBound: Each = ({ record: r }, c) => {
  const b = r.binding;
  if (b?.kind !== 'mcp') return refuse(`${r.name} names no MCP server URL in its provider, so it is filled in nowhere`);
  return underServerUrl(c.url, b.server) ? null : refuse(`${r.name} is bound to the MCP server ${clean(b.server.href)}, and this URL isn't under it`);
};
const serverNames: Each = ({ record: r }, c) => {
  const narrowing = c.target.kind === 'mcp' ? c.target.servers.find((s) => s.names !== undefined && !s.names.includes(r.name)) : undefined;
  return narrowing ? refuse(`${r.name} is not a credential of MCP server ${clean(narrowing.server)}`) : null;
};

/**
 * Each route's checks, in its order (docs/injector.md). A secret's checks each run over all its
 * placeholders before the next; a model key's and an MCP credential's run placeholder by placeholder.
 */
const ROUTES: Record<Target['kind'], { kernel: (url: URL, plan: InjectionPlan) => boolean; basic: boolean; stages: Stage[] }> = {
  // A kernel MCP URL passes only when registered, so that the endpoint check refuses it.
  secret: {
    kernel: (url, plan) => matchesEndpoint(url, plan.policy.refused),
    basic: true,
    stages: [
      refusedEndpoint,
      encodedBodies,
      malformedBasic,
      nonePresent,
      [removed, expired, secretOnly, active],
      locked,
      [ruleAllowing],
      [exitAllowed],
      [once],
      [redirects],
      headControlChars,
    ],
  },
  // Without a `model` placeholder it is refused as every request to a model endpoint is (a
  // secret's included); with one, a secret beside it is named for what it is.
  model: {
    kernel: () => false,
    basic: false,
    stages: [modelKeyPresent, encodedBodies, [modelOnly, removed, expired, modelBound, once, keyHeader, redirects], locked, headControlChars],
  },
  mcp: {
    kernel: () => true,
    basic: false,
    stages: [encodedBodies, [mcpOnly, removed, expired, serverBound, serverNames, once, redirects], locked, headControlChars],
  },
};

/** A rule lets a placeholder go in `header` to `method` `domain` `path`; `reader` shares the path's reading among the rules of one decision. */
export function ruleAllows({ rule, globs }: PreparedRule, domain: string, header: string, method: string, path: string, reader: PathReader): boolean {
  return (
    rule.domain === domain &&
    rule.header === header &&
    (rule.methods.length === 0 || rule.methods.includes(method)) &&
    (globs.length === 0 || globs.some((glob) => preparedMatches(glob, path, reader)))
  );
}

/**
 * Where a request goes (README, Model and MCP endpoints): under a registered MCP server or a bound
 * server URL, an MCP request; else under a built-in model entry or a bound base URL, a model
 * request; else one for the rules. Read the broadest way, from the URL parsed once.
 */
export function targetOf(plan: InjectionPlan, url: URL | null): Target {
  if (url === null) return { kind: 'secret' };
  const servers = plan.policy.servers.filter((s) => s.endpoint !== null && matchesEndpoint(url, [s.endpoint])).map((s) => s.entry);
  if (servers.length > 0 || (plan.bound.mcp.length > 0 && matchesEndpoint(url, plan.bound.mcp))) return { kind: 'mcp', servers };
  const model = modelRequest(url, plan.policy.models, plan.bound.model);
  return model ? { kind: 'model', providers: model.providers } : { kind: 'secret' };
}

/** The decision for a request, over the namespace's plan; `target` forces a route (`/dev/sealed`'s `test` asks the rules'). */
export function decide(plan: InjectionPlan, request: InjectRequest, at: Moment, target: Target = targetOf(plan, request.url)): Decision {
  const route = ROUTES[target.kind];
  const checked = checkHead(request, (url) => route.kernel(url, plan));
  if (typeof checked === 'string') return refuse(checked);
  const url = checked;
  const { sightings, fills, malformedBasic } = route.basic ? scanDecoded(request, plan) : scanRaw(request, plan);
  const c: Reading = {
    plan,
    request,
    at,
    target,
    url,
    domain: normalizeHost(url.hostname),
    method: request.head.method.toUpperCase(),
    path: url.pathname,
    sightings,
    malformedBasic,
    once: new OncePerHead(),
    rules: new Map(),
    reader: null,
  };
  for (const stage of route.stages) {
    if (typeof stage === 'function') {
      const refused = stage(c);
      if (refused) return refused;
      continue;
    }
    for (const s of sightings) {
      for (const check of stage) {
        const refused = check(s, c);
        if (refused) return refused;
      }
    }
  }
  return allowed(c, fills);
}

function allowed(c: Reading, fills: HeaderFill[]): Allowed {
  const { domain, method, path, target } = c;
  const first = new Map<string, Sighting>();
  for (const s of c.sightings) if (!first.has(s.record.name)) first.set(s.record.name, s);
  const common: Common = { inject: true, names: [...first.keys()], fills, domain, method, path };
  if (target.kind === 'model') return { ...common, kind: 'model', uses: [...first.values()].map(({ record: r }) => ({ name: r.name, provider: r.provider! })) };
  if (target.kind === 'mcp') {
    const bound = c.sightings[0]?.record.binding;
    const server = target.servers[0]?.server ?? (bound?.kind === 'mcp' ? bound.server.href : c.url.origin);
    return { ...common, kind: 'mcp', server };
  }
  const uses = [...first.values()].map((s) => {
    const { secret: _, ...rule } = c.rules.get(s)!;
    return { name: s.record.name, rule, domain, method, path };
  });
  return { ...common, kind: 'secret', uses };
}

/**
 * The head's placeholders of this namespace for the rules: each header's value, an
 * `Authorization: Basic` credential decoded, each placeholder once per time it appears, grouped
 * header by header in the order first seen. Stops at a Basic credential that holds a placeholder
 * but doesn't decode (the refusal comes in its place among the checks).
 */
function scanDecoded({ head }: InjectRequest, plan: InjectionPlan) {
  const sightings: Sighting[] = [];
  const fills: HeaderFill[] = [];
  for (const [index, [name, value]] of head.headers.entries()) {
    const header = name.toLowerCase();
    const fill: HeaderFill = { index, text: value, basic: null, records: [] };
    const basic = header === 'authorization' ? basicCredentials(value) : null;
    if (basic) {
      const binary = decodeBase64(basic.credentials);
      const credential = binary === null ? null : utf8OrNull(binary);
      if (credential?.includes(':')) {
        fill.text = credential;
        fill.basic = { scheme: basic.scheme };
      } else if (ANY_PLACEHOLDER.test(value) || ANY_PLACEHOLDER.test(binary ?? '')) {
        // Placeholders are ASCII, so they show in the raw bytes even when these aren't UTF-8.
        return { sightings, fills, malformedBasic: true };
      }
    }
    const counts = new Map<string, number>();
    for (const [p] of fill.text.matchAll(PLACEHOLDERS)) counts.set(p, (counts.get(p) ?? 0) + 1);
    for (const [p, count] of counts) {
      const record = plan.records.get(p);
      if (!record) continue;
      fill.records.push(record);
      for (let k = 0; k < count; k++) sightings.push({ fill, header, record });
    }
    if (fill.records.length > 0) fills.push(fill);
  }
  return { sightings, fills, malformedBasic: false };
}

/** The head's placeholders of this namespace in header values as written, in the order they appear (model and MCP requests). */
function scanRaw({ head }: InjectRequest, plan: InjectionPlan) {
  const sightings: Sighting[] = [];
  const fills: HeaderFill[] = [];
  for (const [index, [name, value]] of head.headers.entries()) {
    const header = name.toLowerCase();
    const fill: HeaderFill = { index, text: value, basic: null, records: [] };
    for (const [p] of value.matchAll(PLACEHOLDERS)) {
      const record = plan.records.get(p);
      if (!record) continue;
      if (!fill.records.includes(record)) fill.records.push(record);
      sightings.push({ fill, header, record });
    }
    if (fill.records.length > 0) fills.push(fill);
  }
  return { sightings, fills, malformedBasic: false };
}
