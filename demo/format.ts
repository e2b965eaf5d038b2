// Small text forms shared by the panels: times, rules, exec modes, audit entries.
import type { AuditEntry, ExecMode, ListedState, PolicyChange, RecordKind, Rule, SecretView } from '../src/contract.ts';

/**
 * Every date and time of the demo, in one format: the person's locale, a medium date with hours and
 * minutes, and seconds where they matter (the audit log, requests that expire in minutes).
 */
export const time = (ms: number | undefined | null, seconds = false) =>
  ms ? new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short' }) : '—';

/** What each word of the demo means, said where the word shows (a tooltip) and in the legends. */
export const MEANS = {
  inert: "inert: a secret kept, but nothing uses it until root's /etc/fnox/config.toml names its placeholder and a rule allows it",
  active: 'active: /etc/fnox/config.toml holds its placeholder and a rule names it, so forward fills it in where the rule allows',
  removed: 'removed: used nowhere; it can be restored for 30 days, then it is purged',
  model:
    'model key: the agent puts its placeholder where pi-ai puts a key, and the vault fills the key in only for requests to its provider; rules never apply to it',
  mcp: 'MCP key: the agent uses it for its MCP server, and the vault fills it in only for requests to that server; rules never apply to it',
  grant: "sign-in: a sign-in's refresh token, kept to renew the sign-in; never filled into a request",
  unbound: 'unbound: a model or MCP key whose provider or server matches no endpoint, so the vault fills it in nowhere (its row says why)',
  unreadable: "unreadable: its ciphertext doesn't open under the vault's key; skipped by the scrubber and the injector",
  exits:
    'exits: the ways bios may send a request with this secret (page, proxy, tailscale, device:NAME), from [exits] in /etc/slicc/secrets-policy.toml; all when it names none',
  needed: 'scrub needed: whether output must pass the scrubber before it reaches the model (false only while no value is stored)',
  version: 'scrub version: counts every change to the set of values; a scrubber compiled at an older version is stale',
  ready: 'scrub ready: whether this vault frame has a scrubber for the values now (false only after a reload with the lock on, before unlock)',
} as const;

/**
 * A record's badge. `active` and `inert` say whether a rule lets a `secret` go out; the vault lists a
 * model or MCP key and a sign-in as `inert` too, since no rule ever names them, so for those the badge
 * says what uses them instead.
 */
export function badge(r: { kind: RecordKind; state: ListedState; provider?: string; warning?: string }): { label: string; tone: string; means: string } {
  if (r.kind === 'secret' || r.state === 'removed' || r.state === 'unreadable') return { label: r.state, tone: r.state, means: MEANS[r.state] };
  if (r.warning) return { label: 'unbound', tone: 'inert', means: `unbound: ${r.warning}` };
  const label = r.kind === 'model' ? 'model key' : r.kind === 'mcp' ? 'MCP key' : 'sign-in';
  const means = MEANS[r.kind].replace(/its (provider|MCP server)/, (all) => (r.provider ? `${all} (${r.provider})` : all));
  return { label, tone: r.kind === 'grant' ? 'inert' : 'credential', means };
}

/** The vault names a rule of /etc/fnox/config.toml by its index from 0 (`proxy.rules[2]`): a person counts from 1. */
export const readable = (text: string) => text.replace(/\bproxy\.rules\[(\d+)\]/g, (_, i) => `rule ${Number(i) + 1} of [[proxy.rules]]`);

export const ruleText = (r: Rule) =>
  `${r.methods.length ? r.methods.join(',') : 'any'} ${r.domain}${r.paths.length ? ` ${r.paths.join(' ')}` : ''} → ${r.header}`;

export function execText(s: Pick<SecretView, 'exec' | 'execArgv'>): string {
  const mode: ExecMode = s.exec;
  if (mode === false) return 'never';
  if (mode === 'argv') return `argv: ${(s.execArgv ?? []).map((a) => a.join(' ')).join(' | ')}`;
  return mode;
}

const changeText = (c: PolicyChange) => {
  switch (c.what) {
    case 'rule':
      return `rule ${c.change} for ${c.secret}: ${ruleText(c.rule)}`;
    case 'exec':
      return `${c.secret} exec ${c.from} → ${c.to}`;
    case 'exits':
      return `${c.secret} exits ${c.from?.join(',') ?? 'all'} → ${c.to?.join(',') ?? 'all'}`;
    case 'limits':
      return `${c.limit} ${c.from} → ${c.to}`;
  }
};

const who = (e: { uid?: number; tag?: string }) => (e.uid !== undefined ? ` by uid ${e.uid}${e.tag ? ` (${e.tag})` : ''}` : '');

/** One line for an audit entry; `materialize` reads "Revealed to a program" (README). */
export function auditText(e: AuditEntry): string {
  switch (e.type) {
    case 'forward':
      return `${e.name} used: ${e.method} ${e.domain}${e.path} via ${e.exit}${who(e)}`;
    case 'model':
      return `${e.name} sent to model provider ${e.provider}: ${e.domain}${e.path} via ${e.exit}${e.count > 1 ? ` (${e.count} requests this minute)` : ''}`;
    case 'mcp':
      return `${e.name} sent to MCP server ${e.server}: ${e.method} ${e.domain}${e.path}${who(e)}`;
    case 'materialize':
      return `${e.refused ? 'Not revealed' : 'Revealed'} to a program: ${e.name} as ${e.variable} (${e.kind}, [exec] ${e.exec || 'false'}: ${e.argv.join(' ')}${e.argvCut ? ' …' : ''})${who(e)}${e.refused ? `: ${e.refused}` : ''}`;
    case 'seal':
      return `${e.name} ${e.rotated ? 'rotated' : 'sealed'} (${e.kind}, from ${e.source})${who(e)}`;
    case 'remove':
    case 'restore':
    case 'purge':
      return `${e.name} ${e.type === 'purge' ? 'purged' : `${e.type}d`}${who(e)}`;
    case 'unreadable':
      return `${e.name} can't be read under the vault's key: skipped by the scrubber and the injector`;
    case 'policy':
      return `policy ${e.path} ${e.accepted ? 'accepted' : 'not trusted'} (sha256 ${e.sha256.slice(0, 12)}…)${e.warning ? `: ${readable(e.warning)}` : ''}${
        e.changes.length ? ` — ${e.changes.map(changeText).join('; ')}${e.changesMore ? `; and ${e.changesMore} more` : ''}` : ''
      }`;
    case 'export':
      return `backed up ${e.count} record${e.count === 1 ? '' : 's'}`;
    case 'endpoints':
      return `registrations ${e.change}: ${[...e.model, ...e.mcp.map((m) => `MCP ${m.server} ${m.url}${m.names ? ` (${m.names.join(', ')})` : ''}`)].join('; ')}`;
    case 'import':
      return `restored from ${e.source === 'import:dotenv' ? 'a .env file' : 'a backup'}: ${e.added} added, ${e.replaced - (e.broughtBack ?? 0)} replaced, ${e.broughtBack ? `${e.broughtBack} brought back, ` : ''}${e.skipped} unchanged or invalid, of ${e.count}`;
  }
}

export const kindText = (kind: SecretView['kind']) => (kind === 'grant' ? 'Sign-in' : kind);
