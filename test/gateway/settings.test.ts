import { expect } from '@open-wc/testing';
import { originAllowed } from '../../src/gateway/index.ts';
import { parseConfig, parseEmbedders } from '../../src/gateway/settings.ts';

describe('embedders.json', () => {
  const list = ['https://*.sliccy.ai', 'http://localhost:8001'];

  it('allows an exact origin', () => {
    expect(originAllowed('http://localhost:8001', list)).to.equal(true);
    expect(originAllowed('http://localhost:8002', list)).to.equal(false);
  });

  it('lets * stand for exactly one host label', () => {
    expect(originAllowed('https://seven.sliccy.ai', list)).to.equal(true);
    expect(originAllowed('https://sliccy.ai', list)).to.equal(false);
    expect(originAllowed('https://a.b.sliccy.ai', list)).to.equal(false);
    expect(originAllowed('https://seven.sliccy.ai.evil.com', list)).to.equal(false);
    expect(originAllowed('http://seven.sliccy.ai', list)).to.equal(false);
    expect(originAllowed('https://seven.sliccy.ai:444', list)).to.equal(false);
    expect(originAllowed('null', list)).to.equal(false);
  });

  it('refuses a file that is not a list of origins', () => {
    expect(() => parseEmbedders({ origins: [] })).to.throw('JSON array');
    expect(() => parseEmbedders(['https://a.sliccy.ai/path'])).to.throw('not an origin');
    expect(() => parseEmbedders(['https://a.*.sliccy.ai'])).to.throw('not an origin');
    expect(() => parseEmbedders([7])).to.throw('string');
    expect(parseEmbedders(list)).to.deep.equal(list);
  });
});

describe('config.json', () => {
  it('needs at least 600,000 passphrase iterations', () => {
    expect(() => parseConfig({ name: 'v', passphraseIterations: 1000, requestLifetimeMs: 300000 })).to.throw('600000');
    expect(parseConfig({ name: 'v', passphraseIterations: 600000, requestLifetimeMs: 300000 }).passphraseIterations).to.equal(600000);
  });

  it('allows at most 10,000,000 passphrase iterations, so no config makes an unlock hang', () => {
    for (const n of [10_000_001, 2 ** 32, 1e9]) {
      expect(() => parseConfig({ name: 'v', passphraseIterations: n, requestLifetimeMs: 300000 })).to.throw('from 600000 to 10000000');
    }
    expect(parseConfig({ name: 'v', passphraseIterations: 10_000_000, requestLifetimeMs: 300000 }).passphraseIterations).to.equal(10_000_000);
  });

  it('refuses a missing name or lifetime', () => {
    expect(() => parseConfig({ passphraseIterations: 600000, requestLifetimeMs: 300000 })).to.throw('name');
    expect(() => parseConfig({ name: 'v', passphraseIterations: 600000 })).to.throw('requestLifetimeMs');
    expect(() => parseConfig(null)).to.throw('object');
  });
});
