// Whether an exec may have its values (README, Exec), as pure rules: every `[exec]` mode against
// generated argvs (prefixes, shorter, longer, the same path spelled with `..`, `//`, a relative
// name, a trailing slash, another case, Unicode look-alikes), every record state and kind, uids,
// another namespace's placeholder and one bad variable among good ones, each against a model
// written for the test; and the rates of `[limits]` over generated times against a model.
import { expect } from '@open-wc/testing';
import type { ExecMode, KernelExec } from '../../src/contract.ts';
import { emptyLog, judgeExec, logged, rateRefusal } from '../../src/exec/index.ts';
import { type ExecRecord, modeAllows } from '../../src/exec/judge.ts';
import { DEFAULT_LIMITS, type ExecPolicy } from '../../src/policy/index.ts';
import { prng } from '../helpers/random.ts';

/** The model of a prefix: the argv's first elements, as JSON, are the prefix's, as JSON. */
const startsWith = (argv: readonly string[], prefix: readonly string[]) =>
  prefix.length <= argv.length && JSON.stringify(argv.slice(0, prefix.length)) === JSON.stringify(prefix);

/** Spellings of a path or word that name "the same thing" to a person and must match nothing but themselves. */
function lookalikes(element: string): string[] {
  const out = [
    element.toUpperCase(),
    `${element}/`,
    ` ${element}`,
    `${element}\u200b`,
    element.normalize('NFD'),
    element.replace('g', '\u0261'), // LATIN SMALL LETTER SCRIPT G
    element.replace('a', '\u0430'), // CYRILLIC SMALL LETTER A
    element.replace('e', '\u0435'), // CYRILLIC SMALL LETTER IE
  ];
  if (element.startsWith('/')) {
    const parts = element.split('/');
    const base = parts.at(-1)!;
    const dir = parts.slice(0, -1).join('/');
    out.push(base, element.slice(1), `${dir}/../${parts.at(-2) ?? ''}/${base}`, `${dir}//${base}`, `${dir}/./${base}`, `/${element}`);
  }
  return out.filter((s) => s !== element);
}

const PREFIXES = [['/usr/bin/gh', 'release', 'upload'], ['/usr/bin/gh'], ['/usr/local/bin/npm', 'publish'], ['/usr/bin/git', '-c', 'credential.helper=fnox']];

/** A generated argv near `prefix`: the prefix, shorter, longer, or with one element spelled otherwise. */
function argvNear(random: () => number, prefix: string[]): string[] {
  const r = random();
  if (r < 0.2) return [...prefix];
  if (r < 0.35) return [...prefix, ...['--repo', 'x/y', 'a.txt', '--', ''].slice(0, 1 + Math.floor(random() * 5))];
  if (r < 0.5) return prefix.slice(0, Math.floor(random() * prefix.length));
  const at = Math.floor(random() * prefix.length);
  const variants = lookalikes(prefix[at]!);
  const argv = [...prefix];
  argv[at] = variants[Math.floor(random() * variants.length)]!;
  return random() < 0.5 ? argv : [...argv, 'more'];
}

describe('the [exec] modes', () => {
  it('argv allows an exec only when its argv starts with a listed prefix, element by element, exactly (2,000 generated argvs)', () => {
    const random = prng(1901);
    let allowed = 0;
    for (let i = 0; i < 2000; i++) {
      const listed = PREFIXES.filter(() => random() < 0.5);
      const near = PREFIXES[Math.floor(random() * PREFIXES.length)]!;
      const argv = argvNear(random, near);
      if (argv.length === 0) argv.push('/usr/bin/gh');
      const exec: KernelExec = { kind: 'exec', argv };
      const want = listed.some((p) => startsWith(argv, p));
      expect(modeAllows('argv', listed, exec), JSON.stringify({ listed, argv })).to.equal(want);
      if (want) allowed++;
    }
    expect(allowed, 'the generator also makes allowed argvs').to.be.above(100);
  });

  it('any allows every program and no shell; shell allows both; argv never a shell', () => {
    const program: KernelExec = { kind: 'exec', argv: ['/opt/whatever'] };
    const shell: KernelExec = { kind: 'shell', argv: ['/bin/bash'] };
    const table: [Exclude<ExecMode, false>, KernelExec, boolean][] = [
      ['any', program, true],
      ['any', shell, false],
      ['shell', program, true],
      ['shell', shell, true],
      ['argv', { kind: 'shell', argv: ['/usr/bin/gh'] }, false],
    ];
    for (const [mode, exec, want] of table) expect(modeAllows(mode, [['/usr/bin/gh']], exec), `${mode} ${exec.kind}`).to.equal(want);
  });
});

describe('judging an exec', () => {
  const NOW = 1_800_000_000_000;
  const P = (n: number) => `fnox_proxy_${n.toString(16).padStart(24, '0')}`;
  const records = new Map<string, ExecRecord>([
    [P(1), { name: 'GH_TOKEN', kind: 'secret', source: 'settings' }],
    [P(2), { name: 'NPM_TOKEN', kind: 'secret', source: 'settings' }],
    [P(3), { name: 'anthropic', kind: 'model', source: 'settings' }],
    [P(4), { name: 'OLD_TOKEN', kind: 'secret', source: 'settings', removedAt: NOW - 1 }],
    [P(5), { name: 'LATE_TOKEN', kind: 'secret', source: 'oauth:github', expiresAt: NOW }],
    [P(6), { name: 'BROKEN_TOKEN', kind: 'secret', source: 'settings', unreadableAt: NOW - 5 }],
    [P(7), { name: 'CRON_TOKEN', kind: 'secret', source: 'process', uid: 1000 }],
    [P(8), { name: 'NO_LINE', kind: 'secret', source: 'settings' }],
    [P(9), { name: 'github:me', kind: 'grant', source: 'oauth:github' }],
    [P(10), { name: 'OLD_CRON', kind: 'secret', source: 'process' }],
  ]);
  const lines: Record<string, ExecPolicy> = {
    GH_TOKEN: { mode: 'argv', argv: [['/usr/bin/gh']] },
    NPM_TOKEN: { mode: 'any' },
    OLD_TOKEN: { mode: 'any' },
    LATE_TOKEN: { mode: 'any' },
    BROKEN_TOKEN: { mode: 'any' },
    CRON_TOKEN: { mode: 'shell' },
    OLD_CRON: { mode: 'any' },
  };
  const gh: KernelExec = { kind: 'exec', argv: ['/usr/bin/gh', 'api', 'user'] };
  const judge = (env: Record<string, string>, exec = gh, uid = 1000, locked = false) =>
    judgeExec({ env, exec, uid, locked, now: NOW, record: (p) => records.get(p), line: (n) => lines[n] });

  it('reveals a secret its [exec] line allows to this exec, to its own uid and to root', () => {
    expect(judge({ GITHUB_TOKEN: P(1), NPM: P(2) }).refusal).to.equal(null);
    expect(judge({ TOKEN: P(7) }, gh, 1000).refusal).to.equal(null);
    expect(judge({ TOKEN: P(7) }, gh, 0).refusal).to.equal(null);
    expect(judge({ TOKEN: P(10) }, gh, 0).refusal, 'sealed by a program of an unrecorded uid').to.equal(null);
  });

  it('refuses, naming the variable or record and why, every state and kind that may not be revealed', () => {
    const table: [Record<string, string>, KernelExec, number, string, string][] = [
      [{ X: 'fnox_proxy_ffffffffffffffffffffffff' }, gh, 1000, 'ENOENT', "X's placeholder is not of this vault"],
      [{ X: P(3) }, gh, 1000, 'EACCES', 'anthropic is a model record; only secrets are revealed to programs'],
      [{ X: P(9) }, gh, 1000, 'EACCES', 'github:me is a grant record; only secrets are revealed to programs'],
      [{ X: P(4) }, gh, 1000, 'EACCES', 'OLD_TOKEN was removed'],
      [{ X: P(5) }, gh, 1000, 'EACCES', 'LATE_TOKEN expired'],
      [{ X: P(6) }, gh, 1000, 'EACCES', "BROKEN_TOKEN can't be read under the vault's key"],
      [{ X: P(8) }, gh, 1000, 'EACCES', "NO_LINE may not be revealed to a program: [exec] doesn't allow it"],
      [
        { X: P(1) },
        { kind: 'exec', argv: ['/usr/bin/curl'] },
        1000,
        'EACCES',
        'GH_TOKEN may not be revealed to this program: [exec] lists other argv prefixes',
      ],
      [{ X: P(1) }, { kind: 'shell', argv: ['/bin/sh'] }, 1000, 'EACCES', 'GH_TOKEN may not be revealed to a shell: [exec] allows only the programs it lists'],
      [{ X: P(2) }, { kind: 'shell', argv: ['/bin/sh'] }, 1000, 'EACCES', 'NPM_TOKEN may not be revealed to a shell: [exec] allows programs only'],
      [{ X: P(7) }, gh, 1001, 'EACCES', 'CRON_TOKEN was sealed by another user'],
      [{ X: P(10) }, gh, 1000, 'EACCES', "OLD_CRON was sealed by a user the vault didn't record; only root may have it"],
    ];
    for (const [env, exec, uid, code, message] of table) {
      expect(judge(env, exec, uid).refusal, JSON.stringify(env)).to.deep.equal({ code, message });
    }
  });

  it('refuses the whole exec for one bad variable among good ones, naming the first refused, each with its own verdict', () => {
    const { verdicts, refusal } = judge({ A: P(1), B: P(8), C: P(2), D: P(4) });
    expect(refusal).to.deep.equal({ code: 'EACCES', message: "NO_LINE may not be revealed to a program: [exec] doesn't allow it" });
    expect(verdicts.map((v) => [v.variable, v.mode, v.refused ?? null])).to.deep.equal([
      ['A', 'argv', null],
      ['B', false, "NO_LINE may not be revealed to a program: [exec] doesn't allow it"],
      ['C', 'any', null],
      ['D', 'any', 'OLD_TOKEN was removed'],
    ]);
  });

  it('refuses every exec while the vault is locked, and holds uid 0 to [exec] like everyone', () => {
    expect(judge({ A: P(1) }, gh, 1000, true).refusal).to.deep.equal({ code: 'EACCES', message: 'vault is locked: unlock it to reveal a value to a program' });
    expect(judge({ A: P(8) }, gh, 0).refusal?.code).to.equal('EACCES');
    expect(judge({ A: P(1) }, { kind: 'exec', argv: ['/bin/cat'] }, 0).refusal?.code).to.equal('EACCES');
  });
});

describe('the rates of [limits]', () => {
  it('count execs in a rolling minute and day, and shells apart, naming the limit and when it frees (3 seeds of 600 calls)', () => {
    for (const seed of [7, 8, 9]) {
      const random = prng(seed);
      const limits = {
        materialize_per_minute: 1 + Math.floor(random() * 4),
        materialize_per_day: 5 + Math.floor(random() * 20),
        shell_per_day: 1 + Math.floor(random() * 6),
      };
      let log = emptyLog();
      const model = { exec: [] as number[], shell: [] as number[] };
      let now = 1_800_000_000_000;
      for (let i = 0; i < 600; i++) {
        now += Math.floor(random() < 0.8 ? random() * 20_000 : random() * 4 * 60 * 60 * 1000);
        const kind = random() < 0.7 ? 'exec' : 'shell';
        const windows: [string, number, number][] =
          kind === 'exec'
            ? [
                ['materialize_per_minute', 60_000, limits.materialize_per_minute],
                ['materialize_per_day', 86_400_000, limits.materialize_per_day],
              ]
            : [['shell_per_day', 86_400_000, limits.shell_per_day]];
        let want: string | null = null;
        for (const [name, ms, rate] of windows) {
          const inside = model[kind].filter((t) => now - t < ms);
          if (inside.length >= rate) {
            const seconds = Math.max(1, Math.ceil((inside[inside.length - rate]! + ms - now) / 1000));
            const words =
              seconds < 120
                ? `${seconds} s`
                : Math.ceil(seconds / 60) < 120
                  ? `${Math.ceil(seconds / 60)} min`
                  : `${Math.ceil(Math.ceil(seconds / 60) / 60)} h`;
            want = `${name} (${rate}) reached; try again in ${words}`;
            break;
          }
        }
        expect(rateRefusal(log, kind, { ...DEFAULT_LIMITS, ...limits }, now), `seed ${seed}, call ${i}`).to.equal(want);
        if (want === null) {
          log = logged(log, kind, now);
          model[kind].push(now);
        }
      }
    }
  });
});
