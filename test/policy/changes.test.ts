import { expect } from '@open-wc/testing';
import { policyChanges } from '../../src/policy/changes.ts';
import { parseFnoxConfig } from '../../src/policy/fnox-config.ts';
import { parseSecretsPolicy } from '../../src/policy/secrets-policy.ts';

const SECRETS = `[secrets]
A = { provider = "seven", value = "fnox_proxy_0123456789abcdef01234567" }
B = { provider = "seven", value = "fnox_proxy_89abcdef0123456789abcdef" }
`;
const fnox = (rules: string) => parseFnoxConfig(SECRETS + rules);
const RA = '[[proxy.rules]]\nsecret = "A"\ndomain = "a.example"\nmethods = ["GET", "POST"]\npaths = ["/x", "/y"]\n';
const RB = '[[proxy.rules]]\nsecret = "B"\ndomain = "b.example"\n';
const ruleA = { domain: 'a.example', header: 'authorization', methods: ['GET', 'POST'], paths: ['/x', '/y'] };
const ruleB = { domain: 'b.example', header: 'authorization', methods: [], paths: [] };

describe('policyChanges: /etc/fnox/config.toml', () => {
  it('finds no change between two parses of the same file', () => {
    expect(policyChanges(fnox(RA + RB), fnox(RA + RB))).to.deep.equal([]);
  });

  it('lists every rule as added when there was no accepted file', () => {
    expect(policyChanges(null, fnox(RA + RB))).to.deep.equal([
      { what: 'rule', change: 'added', secret: 'A', rule: ruleA },
      { what: 'rule', change: 'added', secret: 'B', rule: ruleB },
    ]);
  });

  it('finds a rule added and a rule removed', () => {
    expect(policyChanges(fnox(RA), fnox(RB))).to.deep.equal([
      { what: 'rule', change: 'added', secret: 'B', rule: ruleB },
      { what: 'rule', change: 'removed', secret: 'A', rule: ruleA },
    ]);
  });

  it('sees a changed rule as the old one removed and the new one added', () => {
    const wider = RA.replace('paths = ["/x", "/y"]', 'paths = ["/**"]');
    expect(policyChanges(fnox(RA), fnox(wider))).to.deep.equal([
      { what: 'rule', change: 'added', secret: 'A', rule: { ...ruleA, paths: ['/**'] } },
      { what: 'rule', change: 'removed', secret: 'A', rule: ruleA },
    ]);
  });

  it('ignores the order of rules, methods and paths, and how they were spelled', () => {
    const respelled = '[[proxy.rules]]\nsecret = "A"\ndomain = "a.example."\nheader = "Authorization"\nmethods = ["post", "GET"]\npaths = ["/y", "/x"]\n';
    expect(policyChanges(fnox(RA + RB), fnox(RB + respelled))).to.deep.equal([]);
  });

  it('sees the same rule for another secret as a change', () => {
    const forB = RA.replace('secret = "A"', 'secret = "B"');
    expect(policyChanges(fnox(RA), fnox(forB)).map((c) => c.what === 'rule' && `${c.change} ${c.secret}`)).to.deep.equal(['added B', 'removed A']);
  });
});

describe('policyChanges: /etc/slicc/secrets-policy.toml', () => {
  const policy = parseSecretsPolicy;

  it('finds no change between two parses of the same file', () => {
    const text = '[exec]\nA = true\n[exits]\nA = ["page"]\n[limits]\nshell_per_day = 7\n';
    expect(policyChanges(policy(text), policy(text))).to.deep.equal([]);
  });

  it('reports exec modes from false when there was no accepted file, and limits against the defaults', () => {
    expect(policyChanges(null, policy('[exec]\nA = true\nB = false\n[limits]\nshell_per_day = 5000\nmaterialize_per_day = 3\n'))).to.deep.equal([
      { what: 'exec', secret: 'A', from: false, to: 'any' },
      { what: 'limits', limit: 'materialize_per_day', from: 200, to: 3 },
    ]);
  });

  it('reports each exec mode change, by secret name', () => {
    const before = policy('[exec]\nA = true\nB = { shell = true }\nC = { argv = [["/bin/x"]] }\n');
    const after = policy('[exec]\nB = true\nC = { shell = true }\nD = { argv = [["/bin/y"]] }\n');
    expect(policyChanges(before, after)).to.deep.equal([
      { what: 'exec', secret: 'A', from: 'any', to: false },
      { what: 'exec', secret: 'B', from: 'shell', to: 'any' },
      { what: 'exec', secret: 'C', from: 'argv', to: 'shell' },
      { what: 'exec', secret: 'D', from: false, to: 'argv' },
    ]);
  });

  it('reports changed argv prefixes as argv to argv', () => {
    const before = policy('[exec]\nA = { argv = [["/usr/bin/gh", "release"]] }\n');
    const after = policy('[exec]\nA = { argv = [["/usr/bin/gh"]] }\n');
    expect(policyChanges(before, after)).to.deep.equal([{ what: 'exec', secret: 'A', from: 'argv', to: 'argv' }]);
  });

  it('sees an explicit false and no entry as the same', () => {
    expect(policyChanges(policy('[exec]\nA = false\n'), policy(''))).to.deep.equal([]);
  });

  it('sees a malformed exec entry as false', () => {
    expect(policyChanges(policy('[exec]\nA = true\n'), policy('[exec]\nA = "yes"\n'))).to.deep.equal([{ what: 'exec', secret: 'A', from: 'any', to: false }]);
  });

  it('reports exits lines added, removed, narrowed and emptied, with null for no line', () => {
    const before = policy('[exits]\nA = ["page"]\nB = ["page", "proxy"]\nC = ["tailscale"]\n');
    const after = policy('[exits]\nB = ["proxy"]\nC = []\nD = ["device:x"]\n');
    expect(policyChanges(before, after)).to.deep.equal([
      { what: 'exits', secret: 'A', from: ['page'], to: null },
      { what: 'exits', secret: 'B', from: ['page', 'proxy'], to: ['proxy'] },
      { what: 'exits', secret: 'C', from: ['tailscale'], to: [] },
      { what: 'exits', secret: 'D', from: null, to: ['device:x'] },
    ]);
  });

  it('ignores the order of exits in a line', () => {
    expect(policyChanges(policy('[exits]\nA = ["page", "proxy"]\n'), policy('[exits]\nA = ["proxy", "page"]\n'))).to.deep.equal([]);
  });

  it('reports each limit that changed', () => {
    const before = policy('[limits]\nmaterialize_per_minute = 5\n');
    const after = policy('[limits]\nmaterialize_per_day = 100\nshell_per_day = 1\n');
    expect(policyChanges(before, after)).to.deep.equal([
      { what: 'limits', limit: 'materialize_per_minute', from: 5, to: 10 },
      { what: 'limits', limit: 'materialize_per_day', from: 200, to: 100 },
      { what: 'limits', limit: 'shell_per_day', from: 5000, to: 1 },
    ]);
  });

  it('lists exec, then exits, then limits', () => {
    const changes = policyChanges(policy(''), policy('[limits]\nshell_per_day = 1\n[exits]\nA = []\n[exec]\nA = true\n'));
    expect(changes.map((c) => c.what)).to.deep.equal(['exec', 'exits', 'limits']);
  });

  it('handles a secret named constructor', () => {
    expect(policyChanges(policy(''), policy('[exec]\nconstructor = true\n'))).to.deep.equal([{ what: 'exec', secret: 'constructor', from: false, to: 'any' }]);
  });
});
