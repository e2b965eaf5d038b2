import { expect } from '@open-wc/testing';
import { checkDomain, parseFnoxConfig } from '../../src/policy/fnox-config.ts';

const P1 = 'fnox_proxy_0123456789abcdef01234567';
const P2 = 'fnox_proxy_89abcdef0123456789abcdef';
const SECRETS = `[secrets]
GITHUB_TOKEN = { provider = "seven", value = "${P1}" }
NPM_TOKEN = { provider = "seven", value = "${P2}" }
`;
const rule = (body: string) => `${SECRETS}\n[[proxy.rules]]\n${body}\n`;
/** The file with one good rule first, then `body` as proxy.rules[1]. */
const second = (body: string) => rule(`secret = "NPM_TOKEN"\ndomain = "registry.npmjs.org"\n\n[[proxy.rules]]\n${body}`);
const NPM = { secret: 'NPM_TOKEN', domain: 'registry.npmjs.org', header: 'authorization', methods: [], paths: [] };

function dropped(body: string, why: string | RegExp) {
  const c = parseFnoxConfig(second(body));
  expect(c.rules, 'the other rule still counts').to.deep.equal([NPM]);
  expect(c.warnings).to.have.length(1);
  expect(c.warnings[0]).to.match(/^\/etc\/fnox\/config\.toml: proxy\.rules\[1\]/);
  if (typeof why === 'string') expect(c.warnings[0]).to.include(why);
  else expect(c.warnings[0]).to.match(why);
  return c.warnings[0];
}

describe('parseFnoxConfig: [secrets]', () => {
  it('takes seven entries whose value is a placeholder', () => {
    const c = parseFnoxConfig(SECRETS);
    expect(c.secrets).to.deep.equal({ GITHUB_TOKEN: P1, NPM_TOKEN: P2 });
    expect(c.rules).to.deep.equal([]);
    expect(c.warnings).to.deep.equal([]);
  });

  it('ignores other providers without a warning', () => {
    const c = parseFnoxConfig(`[secrets]\nA = { provider = "age", value = "${P1}" }\nB = { provider = "1password", value = "op://x" }\n`);
    expect(c.secrets).to.deep.equal({});
    expect(c.warnings).to.deep.equal([]);
  });

  it('uses the top-level default_provider for entries without a provider', () => {
    const c = parseFnoxConfig(`default_provider = "seven"\n[secrets]\nA = { value = "${P1}" }\nB = { provider = "age", value = "${P2}" }\n`);
    expect(c.secrets).to.deep.equal({ A: P1 });
  });

  it('ignores entries without a provider when there is no default_provider', () => {
    expect(parseFnoxConfig(`[secrets]\nA = { value = "${P1}" }\n`).secrets).to.deep.equal({});
  });

  it("lets an entry's own provider override default_provider", () => {
    const c = parseFnoxConfig(`default_provider = "age"\n[secrets]\nA = { value = "${P1}" }\nB = { provider = "seven", value = "${P2}" }\n`);
    expect(c.secrets).to.deep.equal({ B: P2 });
  });

  it('ignores default_provider inside a profile', () => {
    const c = parseFnoxConfig(`[profiles.dev]\ndefault_provider = "seven"\n[secrets]\nA = { value = "${P1}" }\n`);
    expect(c.secrets).to.deep.equal({});
  });

  it('warns about a seven entry whose value is not a placeholder, without echoing the value', () => {
    const c = parseFnoxConfig(
      `[secrets]\nA = { provider = "seven", value = "ghp_realSecretValue123" }\nB = { provider = "seven", value = "FNOX_PROXY_0123456789ABCDEF01234567" }\nC = { provider = "seven" }\n`,
    );
    expect(c.secrets).to.deep.equal({});
    expect(c.warnings).to.have.length(3);
    expect(c.warnings[0]).to.equal('/etc/fnox/config.toml: secrets.A: value is not a placeholder (fnox_proxy_ and 24 lower-case hex); ignored');
    for (const w of c.warnings) expect(w).not.to.include('ghp_').and.not.to.include('FNOX_PROXY');
  });

  it('warns about a seven entry whose name is not an environment variable name', () => {
    const c = parseFnoxConfig(`[secrets]\n"my-token" = { provider = "seven", value = "${P1}" }\n`);
    expect(c.secrets).to.deep.equal({});
    expect(c.warnings[0]).to.include('secrets."my-token": not an environment variable name');
  });

  it('ignores profiles, imports and other sections', () => {
    const c = parseFnoxConfig(
      `imports = ["/tmp/evil.toml"]\n[profiles.prod.secrets]\nA = { provider = "seven", value = "${P1}" }\n[providers.seven]\ntype = "age"\n`,
    );
    expect(c).to.deep.equal({ secrets: {}, rules: [], warnings: [] });
  });

  it('holds a secret named like an Object.prototype member as an own entry only', () => {
    const c = parseFnoxConfig(`[secrets]\nconstructor = { provider = "seven", value = "${P1}" }\n[[proxy.rules]]\nsecret = "toString"\ndomain = "a.example"\n`);
    expect(Object.keys(c.secrets)).to.deep.equal(['constructor']);
    expect(c.rules).to.deep.equal([]);
    expect(c.warnings[0]).to.include('"toString" is not a seven entry of [secrets]');
  });
});

describe('parseFnoxConfig: [[proxy.rules]]', () => {
  it('normalises a full rule: header lower-cased, methods upper-cased, paths kept', () => {
    const c = parseFnoxConfig(
      rule('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nheader = "X-Api-Key"\nmethods = ["get", "Post"]\npaths = ["/repos/*/releases", "/user/**"]'),
    );
    expect(c.warnings).to.deep.equal([]);
    expect(c.rules).to.deep.equal([
      { secret: 'GITHUB_TOKEN', domain: 'api.github.com', header: 'x-api-key', methods: ['GET', 'POST'], paths: ['/repos/*/releases', '/user/**'] },
    ]);
  });

  it('defaults header to authorization and methods and paths to any (empty)', () => {
    expect(parseFnoxConfig(rule('secret = "NPM_TOKEN"\ndomain = "registry.npmjs.org"')).rules).to.deep.equal([NPM]);
  });

  it('treats explicitly empty methods and paths as any', () => {
    expect(parseFnoxConfig(rule('secret = "NPM_TOKEN"\ndomain = "registry.npmjs.org"\nmethods = []\npaths = []')).rules).to.deep.equal([NPM]);
  });

  it('normalises a trailing dot away from the domain', () => {
    expect(parseFnoxConfig(rule('secret = "NPM_TOKEN"\ndomain = "registry.npmjs.org."')).rules).to.deep.equal([NPM]);
  });

  it('removes duplicate methods and paths', () => {
    const c = parseFnoxConfig(rule('secret = "NPM_TOKEN"\ndomain = "registry.npmjs.org"\nmethods = ["GET", "get"]\npaths = ["/a", "/a"]'));
    expect(c.rules[0]).to.deep.include({ methods: ['GET'], paths: ['/a'] });
  });

  it("ignores keys of a rule other than the five (fnox's placeholder and env)", () => {
    const c = parseFnoxConfig(rule(`secret = "NPM_TOKEN"\ndomain = "registry.npmjs.org"\nplaceholder = "${P1}"\nenv = "X"`));
    expect(c.rules).to.deep.equal([NPM]);
    expect(c.warnings).to.deep.equal([]);
  });

  it('keeps rules in file order', () => {
    const c = parseFnoxConfig(second('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"'));
    expect(c.rules.map((r) => r.secret)).to.deep.equal(['NPM_TOKEN', 'GITHUB_TOKEN']);
  });

  it('drops a rule with an upper-case domain and keeps the others', () => {
    const w = dropped('secret = "GITHUB_TOKEN"\ndomain = "API.github.com"', 'domain "API.github.com" must be lower-case');
    expect(w).to.equal('/etc/fnox/config.toml: proxy.rules[1] ("GITHUB_TOKEN") dropped: domain "API.github.com" must be lower-case');
  });

  it('drops a rule with a path that does not start with /', () => {
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\npaths = ["/ok", "repos/**"]', 'paths entry "repos/**" must start with /');
  });

  it('drops a rule with a methods entry that is not a method', () => {
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nmethods = ["GET", "FETCH"]', 'methods entry "FETCH" is not an HTTP method');
  });

  it('drops a rule naming CONNECT or TRACE, which fetch never sends', () => {
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nmethods = ["CONNECT"]', 'methods entry "CONNECT" is not an HTTP method');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nmethods = ["trace"]', 'methods entry "trace" is not an HTTP method');
  });

  it('drops a rule naming an unknown secret', () => {
    dropped('secret = "AWS_KEY"\ndomain = "aws.example"', '("AWS_KEY") dropped: "AWS_KEY" is not a seven entry of [secrets] with a placeholder');
  });

  it('drops a rule naming a secret of another provider', () => {
    const c = parseFnoxConfig(`[secrets]\nA = { provider = "age", value = "${P1}" }\n[[proxy.rules]]\nsecret = "A"\ndomain = "a.example"\n`);
    expect(c.rules).to.deep.equal([]);
    expect(c.warnings[0]).to.include('"A" is not a seven entry of [secrets]');
  });

  it('drops a rule naming a seven secret whose value is not a placeholder', () => {
    const c = parseFnoxConfig(`[secrets]\nA = { provider = "seven", value = "x" }\n[[proxy.rules]]\nsecret = "A"\ndomain = "a.example"\n`);
    expect(c.rules).to.deep.equal([]);
    expect(c.warnings).to.have.length(2);
  });

  it('drops a rule without a secret or with a non-string secret', () => {
    dropped('domain = "api.github.com"', 'proxy.rules[1] dropped: secret must be a string');
    dropped('secret = 1\ndomain = "api.github.com"', 'proxy.rules[1] dropped: secret must be a string');
  });

  it('drops a rule without a domain', () => {
    dropped('secret = "GITHUB_TOKEN"', 'domain must be a string');
  });

  it('drops a rule whose domain has a scheme, a port, a path or a wildcard', () => {
    dropped('secret = "GITHUB_TOKEN"\ndomain = "https://api.github.com"', 'must be a host, not a URL');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com:443"', 'must not have a port');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com/repos"', 'must not have a path');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "*.github.com"', 'must be one exact host, not a wildcard');
  });

  it('drops a rule whose header is not a header name', () => {
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nheader = "x api key"', 'header "x api key" is not a header name');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nheader = "authorization:"', 'is not a header name');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nheader = ""', 'is not a header name');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nheader = 1', 'header 1 is not a header name');
  });

  it('drops a rule whose methods or paths are not arrays of strings', () => {
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nmethods = "GET"', 'methods must be an array of strings');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\nmethods = [1]', 'methods entry 1 is not an HTTP method');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\npaths = "/a"', 'paths must be an array of strings');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\npaths = [1]', 'paths entry 1 must start with /');
  });

  it('drops a rule whose path has whitespace, a control character or #', () => {
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\npaths = ["/a b"]', 'has whitespace, a control character or #');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\npaths = ["/a#b"]', 'has whitespace, a control character or #');
    dropped('secret = "GITHUB_TOKEN"\ndomain = "api.github.com"\npaths = ["/a\\u0000"]', 'has whitespace, a control character or #');
  });

  it('drops a rule that is the same as an earlier one', () => {
    dropped('secret = "NPM_TOKEN"\ndomain = "registry.npmjs.org."\nheader = "Authorization"', 'proxy.rules[1] ("NPM_TOKEN") dropped: same as proxy.rules[0]');
  });

  it('reports each bad rule with its index and keeps every good one', () => {
    const c = parseFnoxConfig(
      rule(
        'secret = "GITHUB_TOKEN"\ndomain = "API.GITHUB.COM"\n\n[[proxy.rules]]\nsecret = "NPM_TOKEN"\ndomain = "registry.npmjs.org"\n\n[[proxy.rules]]\nsecret = "NPM_TOKEN"\ndomain = "npm.example"\npaths = ["x"]\n\n[[proxy.rules]]\nsecret = "GITHUB_TOKEN"\ndomain = "api.github.com"',
      ),
    );
    expect(c.rules.map((r) => r.domain)).to.deep.equal(['registry.npmjs.org', 'api.github.com']);
    expect(c.warnings.map((w) => w.match(/proxy\.rules\[\d\]/)?.[0])).to.deep.equal(['proxy.rules[0]', 'proxy.rules[2]']);
  });

  it('warns about a [proxy] or proxy.rules of the wrong shape, and about a rule that is not a table', () => {
    expect(parseFnoxConfig(`proxy = 1\n${SECRETS}`).warnings).to.deep.equal(['/etc/fnox/config.toml: [proxy] must be a table; ignored']);
    expect(parseFnoxConfig(`${SECRETS}[proxy]\nrules = 1\n`).warnings[0]).to.include('proxy.rules must be an array of tables');
    const c = parseFnoxConfig(`${SECRETS}[proxy]\nrules = ["x"]\n`);
    expect(c.warnings).to.deep.equal(['/etc/fnox/config.toml: proxy.rules[0] dropped: not a table']);
  });
});

describe('parseFnoxConfig: TOML', () => {
  it("turns a syntax error into a warning with the parser's message and line", () => {
    const c = parseFnoxConfig(`${SECRETS}[[proxy.rules]\nsecret = "A"\n`);
    expect(c).to.deep.include({ secrets: {}, rules: [] });
    expect(c.warnings).to.have.length(1);
    expect(c.warnings[0]).to.match(/^\/etc\/fnox\/config\.toml: not valid TOML: .*line 4/);
  });

  it('turns a duplicate key into a warning naming the line', () => {
    const c = parseFnoxConfig('default_provider = "seven"\ndefault_provider = "age"\n');
    expect(c.warnings[0]).to.include('Duplicate property definition at line 2');
  });

  it('reads an empty file as no secrets and no rules', () => {
    expect(parseFnoxConfig('')).to.deep.equal({ secrets: {}, rules: [], warnings: [] });
  });

  it('warns about a default_provider that is not a string', () => {
    expect(parseFnoxConfig('default_provider = 7\n').warnings[0]).to.include('default_provider must be a string');
  });
});

describe('checkDomain', () => {
  for (const ok of ['api.github.com', 'localhost', 'xn--bcher-kva.example', '10.0.0.1', 'a-b.c0.example']) {
    it(`accepts ${ok}`, () => expect(checkDomain(ok)).to.equal(ok));
  }
  it('normalises one trailing dot away', () => expect(checkDomain('api.github.com.')).to.equal('api.github.com'));
  for (const bad of [
    '',
    '.',
    'a..b',
    'api.github.com..',
    '-a.example',
    'a-.example',
    'a_b.example',
    'bücher.example',
    'a b.example',
    '[::1]',
    '127.1',
    '0x7f.0.0.1',
    `${'a'.repeat(64)}.example`,
  ]) {
    it(`refuses ${JSON.stringify(bad)}`, () => expect(checkDomain(bad)).to.have.property('error'));
  }
});
