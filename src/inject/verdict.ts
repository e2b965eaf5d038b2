// `/dev/sealed`'s `test` (README, /dev/sealed): the rules' decision for `Bearer <placeholder>` in
// one header, over the namespace's plan, sending nothing and filling nothing. Pure.
import type { ExitName, RawTraits, RequestHead } from '../contract.ts';
import { type Moment, clean, decide } from './decide.ts';
import type { InjectionPlan } from './plan.ts';
import { readUrl } from './request.ts';

export interface TestRequest {
  name: string;
  url: string;
  method?: string;
  header?: string;
  exit?: ExitName;
}

/** The verdict, naming the rule that allows it or the refusal's reason; `rawTraits` should be the exit's own (default `{}`). */
export function testVerdict(
  { name, url, method = 'GET', header = 'authorization', exit = 'page' }: TestRequest,
  plan: InjectionPlan,
  at: Moment & { rawTraits?: RawTraits },
): { verdict: 'inject' | 'refuse'; reason: string } {
  let placeholder: string | undefined;
  for (const r of plan.records.values()) {
    if (r.name !== name) continue;
    placeholder = r.placeholder;
    break;
  }
  if (placeholder === undefined) return { verdict: 'refuse', reason: `no record named ${clean(name)}` };
  const head: RequestHead = { method, url, headers: [[header, `Bearer ${placeholder}`]] };
  // Always the rules' decision, wherever the URL lies: a model or MCP endpoint is refused as such.
  const d = decide(plan, { head, url: readUrl(url), exit, rawTraits: at.rawTraits ?? {} }, at, { kind: 'secret' });
  if (!d.inject) return { verdict: 'refuse', reason: d.reason };
  if (d.kind !== 'secret') throw new Error('the rules decided as another route');
  const { rule } = d.uses[0];
  const list = (xs: string[]) => (xs.length ? xs.join(' ') : 'any');
  return {
    verdict: 'inject',
    reason: `allowed by a rule for ${name}: ${rule.domain}, header ${rule.header}, methods ${list(rule.methods)}, paths ${list(rule.paths)}`,
  };
}
