import { expect } from '@open-wc/testing';
import { DEFAULT_LIMITS } from '../../src/policy/index.ts';
import { parseSecretsPolicy } from '../../src/policy/secrets-policy.ts';

const README_EXAMPLE = `[exec]
NPM_TOKEN = true
GITHUB_TOKEN = { argv = [["/usr/bin/gh", "release", "upload"]] }
OPENAI_API_KEY = { shell = true }

[exits]
NPM_TOKEN = ["page", "device:lars-air"]

[limits]
materialize_per_minute = 10
materialize_per_day = 200
shell_per_day = 5000
`;
const PREFIX = '/etc/slicc/secrets-policy.toml: ';

/** Parses `[exec]\nA = <value>` and expects A to stay false with one warning containing `why`. */
function execRefused(value: string, why: string) {
  const p = parseSecretsPolicy(`[exec]\nA = ${value}\nB = true\n`);
  expect(p.exec, value).to.deep.equal({ B: { mode: 'any' } });
  expect(p.warnings, value).to.have.length(1);
  expect(p.warnings[0], value).to.match(/^\/etc\/slicc\/secrets-policy\.toml: exec\.A: .*; exec stays false$/);
  expect(p.warnings[0], value).to.include(why);
}

describe('parseSecretsPolicy: [exec]', () => {
  it('reads the README example', () => {
    const p = parseSecretsPolicy(README_EXAMPLE);
    expect(p).to.deep.equal({
      exec: {
        NPM_TOKEN: { mode: 'any' },
        GITHUB_TOKEN: { mode: 'argv', argv: [['/usr/bin/gh', 'release', 'upload']] },
        OPENAI_API_KEY: { mode: 'shell' },
      },
      exits: { NPM_TOKEN: ['page', 'device:lars-air'] },
      limits: { materialize_per_minute: 10, materialize_per_day: 200, shell_per_day: 5000 },
      warnings: [],
    });
  });

  it('reads false as an explicit off', () => {
    expect(parseSecretsPolicy('[exec]\nA = false\n').exec).to.deep.equal({ A: { mode: false } });
  });

  it('reads several argv prefixes', () => {
    const p = parseSecretsPolicy('[exec]\nA = { argv = [["/usr/bin/gh"], ["/usr/local/bin/npm", "publish"]] }\n');
    expect(p.exec.A).to.deep.equal({ mode: 'argv', argv: [['/usr/bin/gh'], ['/usr/local/bin/npm', 'publish']] });
  });

  it('refuses a string, a number or an array', () => {
    execRefused('"any"', '"any" is not false, true, { argv = [[…]] } or { shell = true }');
    execRefused('1', '1 is not false');
    execRefused('["/bin/sh"]', 'is not false, true');
  });

  it('refuses a table with extra keys', () => {
    execRefused('{ shell = true, argv = [["/bin/sh"]] }', 'a table must be exactly { argv = [[…]] } or { shell = true }');
    execRefused('{ argv = [["/usr/bin/gh"]], env = "X" }', 'not keys "argv", "env"');
  });

  it('refuses a table with another key or none', () => {
    execRefused('{ any = true }', 'not keys "any"');
    execRefused('{}', 'not keys none');
  });

  it('refuses shell other than true', () => {
    execRefused('{ shell = false }', 'shell must be true');
    execRefused('{ shell = "yes" }', 'shell must be true');
  });

  it('refuses argv that is not a non-empty array of prefixes', () => {
    execRefused('{ argv = [] }', 'argv must be a non-empty array of argv prefixes');
    execRefused('{ argv = "/usr/bin/gh" }', 'argv must be a non-empty array');
    execRefused('{ argv = ["/usr/bin/gh"] }', 'argv prefix "/usr/bin/gh" must be a non-empty array of strings');
    execRefused('{ argv = [[]] }', 'argv prefix [] must be a non-empty array of strings');
    execRefused('{ argv = [["/usr/bin/gh", 1]] }', 'must be a non-empty array of strings');
  });

  it('refuses a prefix whose program is not an absolute canonical path', () => {
    execRefused('{ argv = [["gh", "release"]] }', 'argv prefix ["gh","release"] must start with an absolute program path');
    execRefused('{ argv = [["./gh"]] }', 'must start with an absolute program path');
    execRefused('{ argv = [["/usr/bin/../bin/sh"]] }', 'must start with an absolute program path');
    execRefused('{ argv = [["/usr//bin/gh"]] }', 'must start with an absolute program path');
    execRefused('{ argv = [["/usr/bin/"]] }', 'must start with an absolute program path');
    execRefused('{ argv = [["/"]] }', 'must start with an absolute program path');
  });

  it('refuses a prefix with a NUL character', () => {
    execRefused('{ argv = [["/usr/bin/gh", "a\\u0000b"]] }', 'has a NUL character');
  });

  it('refuses a whole entry when one of its prefixes is bad', () => {
    execRefused('{ argv = [["/usr/bin/gh"], ["gh"]] }', 'argv prefix ["gh"]');
  });

  it('ignores a name that is not an environment variable name', () => {
    const p = parseSecretsPolicy('[exec]\n"NPM-TOKEN" = true\n');
    expect(p.exec).to.deep.equal({});
    expect(p.warnings).to.deep.equal([`${PREFIX}exec."NPM-TOKEN": not an environment variable name; ignored`]);
  });

  it('warns about an [exec] that is not a table', () => {
    const p = parseSecretsPolicy('exec = true\n');
    expect(p.exec).to.deep.equal({});
    expect(p.warnings).to.deep.equal([`${PREFIX}[exec] must be a table; ignored`]);
  });
});

describe('parseSecretsPolicy: [exits]', () => {
  it('is optional: no line means no entry (every exit)', () => {
    expect(parseSecretsPolicy('[exec]\nA = true\n').exits).to.deep.equal({});
  });

  it('reads every kind of exit', () => {
    const p = parseSecretsPolicy('[exits]\nA = ["page", "proxy", "tailscale", "device:lars-air", "device:Pixel_8.home"]\n');
    expect(p.exits.A).to.deep.equal(['page', 'proxy', 'tailscale', 'device:lars-air', 'device:Pixel_8.home']);
    expect(p.warnings).to.deep.equal([]);
  });

  it('drops unknown names from a line, narrowing it', () => {
    const p = parseSecretsPolicy('[exits]\nA = ["page", "everywhere", "Page", "device:", "device:a b", 1]\n');
    expect(p.exits.A).to.deep.equal(['page']);
    expect(p.warnings).to.have.length(5);
    expect(p.warnings[0]).to.equal(`${PREFIX}exits.A: "everywhere" is not an exit (page, proxy, tailscale, device:<name>); dropped`);
  });

  it('turns a line of unknown names only into no exit, never every exit', () => {
    const p = parseSecretsPolicy('[exits]\nA = ["everywhere", "*"]\n');
    expect(p.exits).to.deep.equal({ A: [] });
    expect(p.warnings.at(-1)).to.equal(`${PREFIX}exits.A: no known exit left; no exit allowed`);
  });

  it('reads an empty line as no exit', () => {
    const p = parseSecretsPolicy('[exits]\nA = []\n');
    expect(p.exits).to.deep.equal({ A: [] });
    expect(p.warnings).to.deep.equal([]);
  });

  it('turns a line that is not an array into no exit', () => {
    for (const value of ['"page"', 'true', '{ page = true }']) {
      const p = parseSecretsPolicy(`[exits]\nA = ${value}\n`);
      expect(p.exits, value).to.deep.equal({ A: [] });
      expect(p.warnings, value).to.deep.equal([`${PREFIX}exits.A: must be an array of exit names; no exit allowed`]);
    }
  });

  it('removes duplicate exits', () => {
    expect(parseSecretsPolicy('[exits]\nA = ["page", "page"]\n').exits.A).to.deep.equal(['page']);
  });
});

describe('parseSecretsPolicy: [limits]', () => {
  it('uses the defaults without [limits]', () => {
    expect(parseSecretsPolicy('').limits).to.deep.equal({ materialize_per_minute: 10, materialize_per_day: 200, shell_per_day: 5000 });
    expect(DEFAULT_LIMITS).to.deep.equal({ materialize_per_minute: 10, materialize_per_day: 200, shell_per_day: 5000 });
  });

  it('overrides each default with a positive integer', () => {
    const p = parseSecretsPolicy('[limits]\nmaterialize_per_minute = 1\nshell_per_day = 100000\n');
    expect(p.limits).to.deep.equal({ materialize_per_minute: 1, materialize_per_day: 200, shell_per_day: 100000 });
    expect(p.warnings).to.deep.equal([]);
  });

  it('keeps the default for anything but a positive integer', () => {
    const p = parseSecretsPolicy('[limits]\nmaterialize_per_minute = 0\nmaterialize_per_day = -5\nshell_per_day = 2.5\n');
    expect(p.limits).to.deep.equal(DEFAULT_LIMITS);
    expect(p.warnings).to.deep.equal([
      `${PREFIX}limits.materialize_per_minute: 0 is not a positive integer; keeps 10`,
      `${PREFIX}limits.materialize_per_day: -5 is not a positive integer; keeps 200`,
      `${PREFIX}limits.shell_per_day: 2.5 is not a positive integer; keeps 5000`,
    ]);
  });

  it('keeps the default for a string, a boolean or inf', () => {
    const p = parseSecretsPolicy('[limits]\nmaterialize_per_minute = "10"\nmaterialize_per_day = true\nshell_per_day = inf\n');
    expect(p.limits).to.deep.equal(DEFAULT_LIMITS);
    expect(p.warnings).to.have.length(3);
  });

  it('ignores an unknown limit with a warning', () => {
    const p = parseSecretsPolicy('[limits]\nforward_per_day = 3\n');
    expect(p.limits).to.deep.equal(DEFAULT_LIMITS);
    expect(p.warnings).to.deep.equal([`${PREFIX}limits."forward_per_day" is not a limit; ignored`]);
  });

  it('warns about [limits] that is not a table', () => {
    const p = parseSecretsPolicy('limits = 5\n');
    expect(p.limits).to.deep.equal(DEFAULT_LIMITS);
    expect(p.warnings).to.deep.equal([`${PREFIX}[limits] must be a table; defaults apply`]);
  });
});

describe('parseSecretsPolicy: the file', () => {
  it('warns about a section it does not know', () => {
    const p = parseSecretsPolicy('[proxy]\nx = 1\n');
    expect(p.warnings).to.deep.equal([`${PREFIX}"proxy" is not a section of this file; ignored`]);
  });

  it('turns a syntax error into a warning with the line, and the narrowest policy', () => {
    const p = parseSecretsPolicy('[exec]\nA = true\nB = { shell = true\n');
    expect(p.exec).to.deep.equal({});
    expect(p.exits).to.deep.equal({});
    expect(p.limits).to.deep.equal(DEFAULT_LIMITS);
    expect(p.warnings).to.have.length(1);
    expect(p.warnings[0]).to.match(/^\/etc\/slicc\/secrets-policy\.toml: not valid TOML: .*line 3/);
  });

  it('reads an empty file as nothing allowed and the default limits', () => {
    expect(parseSecretsPolicy('')).to.deep.equal({ exec: {}, exits: {}, limits: DEFAULT_LIMITS, warnings: [] });
  });

  it('holds names like Object.prototype members as own entries only', () => {
    const p = parseSecretsPolicy('[exec]\nconstructor = true\n[exits]\ntoString = ["page"]\n');
    expect(Object.keys(p.exec)).to.deep.equal(['constructor']);
    expect(Object.keys(p.exits)).to.deep.equal(['toString']);
    expect('hasOwnProperty' in p.exec).to.equal(false);
  });
});
