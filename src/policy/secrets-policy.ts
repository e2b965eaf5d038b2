// `/etc/slicc/secrets-policy.toml`, read by the vault only: `[exec]`, `[exits]`, `[limits]`.
// Anything malformed warns and falls back to the narrower reading. Never throws.
import type { ExecMode, ExitName } from '../contract.ts';
import { EXIT_NAME } from '../validate.ts';
import { SECRETS_POLICY } from './paths.ts';
import { isTable, parseToml, SECRET_NAME, show, type Table, warnings } from './toml.ts';

export interface ExecPolicy {
  mode: ExecMode;
  argv?: string[][];
}
export interface Limits {
  materialize_per_minute: number;
  materialize_per_day: number;
  shell_per_day: number;
}
export interface SecretsPolicy {
  exec: Record<string, ExecPolicy>;
  /** Only secrets with a line; no line means every exit, an empty line means none. */
  exits: Record<string, ExitName[]>;
  limits: Limits;
  warnings: string[];
  /** Set when the file passes a limit (README, Limits): then nothing of it may be accepted. */
  limit?: string;
}

export const DEFAULT_LIMITS: Readonly<Limits> = { materialize_per_minute: 10, materialize_per_day: 200, shell_per_day: 5000 };
const SECTIONS = ['exec', 'exits', 'limits'];

const empty = (): SecretsPolicy => ({
  exec: Object.create(null),
  exits: Object.create(null),
  limits: { ...DEFAULT_LIMITS },
  warnings: [],
});

export function parseSecretsPolicy(text: string): SecretsPolicy {
  const parsed = parseToml(text);
  if ('error' in parsed) {
    const out = empty();
    out.warnings.push(`${SECRETS_POLICY}: not valid TOML: ${parsed.error}`);
    if (parsed.limit) out.limit = parsed.error;
    return out;
  }
  return readSecretsPolicy(parsed.table);
}

/** The file's meaning, from its parsed TOML. */
export function readSecretsPolicy(root: Table): SecretsPolicy {
  const out = empty();
  const { warn, done } = warnings(out.warnings, SECRETS_POLICY);
  read(root, out, warn);
  done();
  return out;
}

function read(root: Table, out: SecretsPolicy, warn: (w: string) => void): void {
  for (const key of Object.keys(root)) if (!SECTIONS.includes(key)) warn(`${show(key)} is not a section of this file; ignored`);

  for (const [name, value] of section(root, 'exec', warn)) {
    const exec = readExec(value);
    if (typeof exec === 'string') warn(`exec.${name}: ${exec}; exec stays false`);
    else out.exec[name] = exec;
  }

  for (const [name, value] of section(root, 'exits', warn)) {
    // A malformed line must never widen to "every exit": it keeps what is valid, maybe nothing.
    const line = new Set<ExitName>();
    if (!Array.isArray(value)) warn(`exits.${name}: must be an array of exit names; no exit allowed`);
    else {
      for (const exit of value) {
        if (typeof exit === 'string' && EXIT_NAME.test(exit)) line.add(exit as ExitName);
        else warn(`exits.${name}: ${show(exit)} is not an exit (page, proxy, tailscale, device:<name>); dropped`);
      }
      if (value.length > 0 && line.size === 0) warn(`exits.${name}: no known exit left; no exit allowed`);
    }
    out.exits[name] = [...line];
  }

  const limits = root.limits;
  if (isTable(limits)) {
    for (const [key, value] of Object.entries(limits)) {
      if (!Object.hasOwn(DEFAULT_LIMITS, key)) warn(`limits.${show(key)} is not a limit; ignored`);
      else if (!Number.isSafeInteger(value) || (value as number) <= 0) {
        warn(`limits.${key}: ${show(value)} is not a positive integer; keeps ${DEFAULT_LIMITS[key as keyof Limits]}`);
      } else out.limits[key as keyof Limits] = value as number;
    }
  } else if (limits !== undefined) warn('[limits] must be a table; defaults apply');
}

/** The entries of `[exec]` or `[exits]` whose key is a secret name; the rest warn. */
function section(root: Record<string, unknown>, key: string, warn: (w: string) => void): [string, unknown][] {
  const table = root[key];
  if (table === undefined) return [];
  if (!isTable(table)) {
    warn(`[${key}] must be a table; ignored`);
    return [];
  }
  return Object.entries(table).filter(([name]) => {
    if (!SECRET_NAME.test(name)) warn(`${key}.${show(name)}: not an environment variable name; ignored`);
    return SECRET_NAME.test(name);
  });
}

function readExec(value: unknown): ExecPolicy | string {
  if (value === false) return { mode: false };
  if (value === true) return { mode: 'any' };
  if (!isTable(value)) return `${show(value)} is not false, true, { argv = [[…]] } or { shell = true }`;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'shell') {
    return value.shell === true ? { mode: 'shell' } : 'shell must be true';
  }
  if (keys.length !== 1 || keys[0] !== 'argv') {
    return `a table must be exactly { argv = [[…]] } or { shell = true }, not keys ${keys.map(show).join(', ') || 'none'}`;
  }
  const argv = value.argv;
  if (!Array.isArray(argv) || argv.length === 0) return 'argv must be a non-empty array of argv prefixes';
  const prefixes: string[][] = [];
  for (const prefix of argv) {
    if (!Array.isArray(prefix) || prefix.length === 0 || !prefix.every((a) => typeof a === 'string')) {
      return `argv prefix ${show(prefix)} must be a non-empty array of strings`;
    }
    if (prefix.some((a: string) => a.includes('\0'))) return `argv prefix ${show(prefix)} has a NUL character`;
    if (!isProgramPath(prefix[0])) return `argv prefix ${show(prefix)} must start with an absolute program path`;
    prefixes.push([...prefix]);
  }
  return { mode: 'argv', argv: prefixes };
}

/** Absolute and canonical: no empty, `.` or `..` segment, so prefixes compare exactly. */
function isProgramPath(p: string): boolean {
  return (
    p.startsWith('/') &&
    p
      .slice(1)
      .split('/')
      .every((s) => s !== '' && s !== '.' && s !== '..')
  );
}
