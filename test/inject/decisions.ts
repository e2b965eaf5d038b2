// The decision's faces the injector tests are written against (a head and everything it is decided
// over, values included), each built on what `forward` runs: a plan prepared from the input, the
// request's URL read once, one decision, then one fill with the values it names.
import type { ExitName, McpServerEntry, RawTraits, RequestHead } from '../../src/contract.ts';
import {
  type Endpoint,
  type InjectionPlan,
  type PlanRecord,
  type Refusal,
  type TestRequest,
  decide,
  fill,
  planRecord,
  readUrl,
  testVerdict as verdict,
} from '../../src/inject/index.ts';
import { type Allowed, type Decision, type ModelUse, type Moment, type Target, type Use, targetOf } from '../../src/inject/decide.ts';
import { type PolicyRule, preparePolicy } from '../../src/inject/plan.ts';
import { checkHead } from '../../src/inject/request.ts';

export type { PolicyRule };
/** A record as the plan reads it, and its value, only for the fill. */
export type InjectRecord = Omit<PlanRecord, 'binding'> & { value: string };
export type ModelRecord = InjectRecord;
export type McpRecord = InjectRecord;

interface Common {
  head: RequestHead;
  exit: ExitName;
  rawTraits: RawTraits;
  locked: boolean;
  now: number;
  records: ReadonlyMap<string, InjectRecord>;
}
export interface ForwardInput extends Common {
  /** Placeholders of other namespaces: left out of the plan, so never filled in. */
  foreignPlaceholder?: (placeholder: string) => boolean;
  rules: readonly PolicyRule[];
  secrets: Readonly<Record<string, string>>;
  exits: Readonly<Record<string, readonly ExitName[]>>;
  refused: readonly Endpoint[];
  /** Registered MCP servers and the built-in model entries, for routing (`routed`). */
  mcp?: readonly McpServerEntry[];
  models?: readonly Endpoint[];
  known?: ReadonlySet<string>;
}
export type ForwardDecision = { inject: true; head: RequestHead; uses: Use[] } | Refusal;
export type ModelDecision = { inject: true; head: RequestHead; uses: ModelUse[]; domain: string; path: string } | Refusal;
export type McpDecision = { inject: true; head: RequestHead; names: string[]; server: string; domain: string; method: string; path: string } | Refusal;

/** The plan a forward would read for this input. */
export function planOf(input: Omit<ForwardInput, 'head' | 'exit' | 'rawTraits' | 'locked' | 'now'>): InjectionPlan {
  const known = input.known ?? new Set<string>();
  const records = new Map([...input.records].filter(([p]) => !input.foreignPlaceholder?.(p)).map(([p, r]) => [p, planRecord(r, known)] as const));
  const bound: { model: Endpoint[]; mcp: Endpoint[] } = { model: [], mcp: [] };
  for (const r of records.values()) if (r.removedAt == null && r.binding && 'endpoint' in r.binding) bound[r.binding.kind].push(r.binding.endpoint);
  const policy = preparePolicy({ ...input, mcp: input.mcp ?? [], models: input.models ?? [], known });
  return { policy, records, bound };
}

/** One decision and, when it allows, one fill with the input's values. */
function decideAndFill(input: ForwardInput, target?: Target): { decision: Decision; head?: RequestHead; refusal?: Refusal } {
  const plan = planOf(input);
  const request = { head: input.head, url: readUrl(input.head.url), exit: input.exit, rawTraits: input.rawTraits };
  const at: Moment = { locked: input.locked, now: input.now };
  const decision = decide(plan, request, at, target ?? targetOf(plan, request.url));
  if (!decision.inject) return { decision };
  const values = new Map<string, string>();
  for (const r of input.records.values()) if (decision.names.includes(r.name) && !values.has(r.name)) values.set(r.name, r.value);
  const filled = fill(decision, input.head, values);
  return filled.inject ? { decision, head: filled.head } : { decision, refusal: filled };
}

const allowedAs = <K extends Allowed['kind']>(d: Decision, kind: K) => {
  if (!d.inject || d.kind !== kind) throw new Error(`decided as ${d.inject ? d.kind : 'a refusal'}, not ${kind}`);
  return d as Extract<Allowed, { kind: K }>;
};

/** The rules' decision, as a plain forward gets it. */
export function decideForward(input: ForwardInput): ForwardDecision {
  const { decision, head, refusal } = decideAndFill(input, { kind: 'secret' });
  if (!decision.inject) return decision;
  return refusal ?? { inject: true, head: head!, uses: allowedAs(decision, 'secret').uses };
}

/** The routed decision, as `forward` takes it: an MCP server's, a model endpoint's, else the rules'. */
export function routed(input: ForwardInput): Decision | Refusal {
  const { decision, refusal } = decideAndFill(input);
  return refusal ?? decision;
}

export function decideModel(input: Common & { target: { providers: string[] }; known: ReadonlySet<string> }): ModelDecision {
  const plain = { ...input, rules: [], secrets: {}, exits: {}, refused: [] };
  const { decision, head, refusal } = decideAndFill(plain, { kind: 'model', providers: input.target.providers });
  if (!decision.inject) return decision;
  if (refusal) return refusal;
  const { uses, domain, path } = allowedAs(decision, 'model');
  return { inject: true, head: head!, uses, domain, path };
}

export function decideMcp(input: Common & { servers: readonly McpServerEntry[] }): McpDecision {
  const plain = { ...input, rules: [], secrets: {}, exits: {}, refused: [] };
  const { decision, head, refusal } = decideAndFill(plain, { kind: 'mcp', servers: [...input.servers] });
  if (!decision.inject) return decision;
  if (refusal) return refusal;
  const { names, server, domain, method, path } = allowedAs(decision, 'mcp');
  return { inject: true, head: head!, names, server, domain, method, path };
}

export type TestContext = Omit<ForwardInput, 'head' | 'exit' | 'rawTraits'> & { rawTraits?: RawTraits };
export function testVerdict(request: TestRequest, context: TestContext) {
  return verdict(request, planOf(context), context);
}

/** The head's checks (1–12): the first reason, or null. */
export function headRefusal(head: RequestHead, kernelAllowed: (url: URL) => boolean): string | null {
  const checked = checkHead({ head, url: readUrl(head.url), exit: 'page', rawTraits: {} }, kernelAllowed);
  return typeof checked === 'string' ? checked : null;
}
