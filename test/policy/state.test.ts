import { expect } from '@open-wc/testing';
import { parseFnoxConfig } from '../../src/policy/fnox-config.ts';
import { parseSecretsPolicy } from '../../src/policy/secrets-policy.ts';
import { secretPolicy, secretState } from '../../src/policy/index.ts';

const P = 'fnox_proxy_0123456789abcdef01234567';
const OTHER = 'fnox_proxy_89abcdef0123456789abcdef';
const config = parseFnoxConfig(`[secrets]
GH = { provider = "seven", value = "${P}" }
NORULE = { provider = "seven", value = "${P}" }

[[proxy.rules]]
secret = "GH"
domain = "api.github.com"

[[proxy.rules]]
secret = "GH"
domain = "uploads.github.com"
header = "X-Token"
methods = ["post"]
`);
const record = (over: Partial<{ kind: 'secret' | 'grant' | 'model' | 'mcp'; placeholder: string; removedAt: number }> = {}) => ({
  kind: 'secret' as const,
  placeholder: P,
  ...over,
});

describe('secretState', () => {
  it('is active for a secret whose [secrets] entry holds its placeholder and that a rule names', () => {
    expect(secretState(record(), 'GH', config)).to.equal('active');
  });

  it('is inert when the [secrets] entry holds another placeholder (another vault, an old record)', () => {
    expect(secretState(record({ placeholder: OTHER }), 'GH', config)).to.equal('inert');
  });

  it('is inert when no rule names the secret', () => {
    expect(secretState(record(), 'NORULE', config)).to.equal('inert');
  });

  it('is inert when the name has no [secrets] entry', () => {
    expect(secretState(record(), 'NPM_TOKEN', config)).to.equal('inert');
  });

  it('is inert without an accepted config', () => {
    expect(secretState(record(), 'GH', null)).to.equal('inert');
  });

  it('is inert for grant, model and mcp records, whatever the file says', () => {
    for (const kind of ['grant', 'model', 'mcp'] as const) expect(secretState(record({ kind }), 'GH', config), kind).to.equal('inert');
  });

  it('is removed when removedAt is set, even with rules', () => {
    expect(secretState(record({ removedAt: 1 }), 'GH', config)).to.equal('removed');
    expect(secretState(record({ removedAt: 0 }), 'GH', config)).to.equal('removed');
  });

  it('does not take an Object.prototype member for a [secrets] entry', () => {
    expect(secretState(record({ placeholder: 'function Object() { [native code] }' }), 'constructor', config)).to.equal('inert');
  });
});

describe('secretPolicy', () => {
  const policy = parseSecretsPolicy('[exec]\nGH = { argv = [["/usr/bin/gh", "release"]] }\nNPM = true\n[exits]\nGH = ["page", "device:air"]\nNONE = []\n');

  it('gives the rules naming the secret, its exec mode with argv, and its exits line', () => {
    expect(secretPolicy('GH', config, policy)).to.deep.equal({
      rules: [
        { domain: 'api.github.com', header: 'authorization', methods: [], paths: [] },
        { domain: 'uploads.github.com', header: 'x-token', methods: ['POST'], paths: [] },
      ],
      exec: 'argv',
      execArgv: [['/usr/bin/gh', 'release']],
      exits: ['page', 'device:air'],
    });
  });

  it('leaves exits out when no line restricts the secret, and gives an empty line as no exit', () => {
    expect(secretPolicy('NPM', config, policy)).to.deep.equal({ rules: [], exec: 'any' });
    expect(secretPolicy('NONE', config, policy)).to.deep.equal({ rules: [], exec: false, exits: [] });
  });

  it('is no rules and exec false without accepted files', () => {
    expect(secretPolicy('GH', null, null)).to.deep.equal({ rules: [], exec: false });
  });

  it('hands out copies, so the caller cannot change the parsed policy', () => {
    const view = secretPolicy('GH', config, policy);
    view.execArgv![0].push('--evil');
    view.exits!.push('proxy');
    expect(policy.exec.GH.argv).to.deep.equal([['/usr/bin/gh', 'release']]);
    expect(policy.exits.GH).to.deep.equal(['page', 'device:air']);
  });
});
