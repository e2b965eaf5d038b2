import { expect } from '@open-wc/testing';
import { MAX_POLICY_FILE_BYTES as MAX_BYTES } from '../../src/limits.ts';
import { checkAttestation } from '../../src/policy/index.ts';
import { parentsOf, untrustedWarning } from '../../src/policy/attest.ts';
import { decode, loadFixtures, sha256 } from '../helpers/attest.ts';

const fixtures = await loadFixtures();
const names = [...fixtures.keys()];

describe('the KS-7 conformance fixtures', () => {
  it('has good and bad fixtures, each bad one with a reason', () => {
    const good = names.filter((n) => n.startsWith('good-'));
    expect(good.length).to.be.at.least(6);
    expect(names.length - good.length).to.be.at.least(40);
    for (const [name, f] of fixtures) expect(f.trusted, name).to.equal(name.startsWith('good-'));
    for (const [name, f] of fixtures) if (!f.trusted) expect(f.reason, name).to.be.a('string').and.not.empty;
  });

  for (const name of names) {
    const f = fixtures.get(name)!;
    if (f.trusted) {
      it(`trusts ${name}: ${f.description}`, async () => {
        const a = decode(f.attestation);
        const v = await checkAttestation(a);
        expect(v, JSON.stringify(v)).to.include({ trusted: true, path: a.path, sha256: a.sha256 });
        if (v.trusted) expect(v.text).to.equal(new TextDecoder().decode(a.bytes as Uint8Array));
      });
    } else {
      it(`refuses ${name} (${f.description}) with "${f.reason}"`, async () => {
        const v = await checkAttestation(decode(f.attestation));
        expect(v.trusted).to.equal(false);
        if (v.trusted) return;
        expect(v.warning).to.match(/^rules not trusted: /);
        expect(v.warning).to.include(f.reason!);
        expect(v.warning).to.equal(untrustedWarning(f.attestation?.path, v.reason));
      });
    }
  }

  it('trusts a good fixture after a structured clone, as postMessage delivers it', async () => {
    const a = decode(fixtures.get('good-fnox-config')!.attestation);
    expect((await checkAttestation(structuredClone(a))).trusted).to.equal(true);
  });
});

describe('checkAttestation', () => {
  const good = () => decode(fixtures.get('good-fnox-config')!.attestation);

  it('says the example warning of the README for users report', async () => {
    const v = await checkAttestation({ ...good(), users: 'report' });
    expect(v).to.include({
      trusted: false,
      path: '/etc/fnox/config.toml',
      reason: 'kernel users must be enforce',
      warning: 'rules not trusted: /etc/fnox/config.toml: kernel users must be enforce',
    });
  });

  it('reports the SHA-256 it computed over bytes, never the claimed one', async () => {
    const a = good();
    const computed = await sha256(a.bytes as Uint8Array<ArrayBuffer>);
    const v = await checkAttestation({ ...a, sha256: 'a'.repeat(64) });
    expect(v).to.include({ trusted: false, sha256: computed, reason: 'sha256 does not match bytes' });
  });

  it('reports a null SHA-256 when there are no bytes', async () => {
    const v = await checkAttestation({ ...good(), bytes: [1, 2] });
    expect(v).to.include({ trusted: false, sha256: null, reason: 'bytes must be a Uint8Array' });
  });

  it('reports a null path and quotes it in the warning when it is not a policy file', async () => {
    const v = await checkAttestation({ ...good(), path: '/etc/shadow\n' });
    expect(v.path).to.equal(null);
    if (!v.trusted) expect(v.warning).to.equal('rules not trusted: "/etc/shadow\\n": ' + v.reason);
  });

  it('refuses anything that is not a plain object', async () => {
    class Attestation {}
    for (const input of [null, undefined, 'x', 1, [], new Map(), Object.assign(new Attestation(), good())]) {
      const v = await checkAttestation(input);
      expect(v, String(input)).to.include({ trusted: false, path: null, reason: 'attestation must be an object' });
      if (!v.trusted) expect(v.warning).to.equal('rules not trusted: (no path): attestation must be an object');
    }
  });

  it('refuses bytes in another typed array or buffer', async () => {
    const bytes = good().bytes as Uint8Array;
    for (const other of [new Int8Array(bytes), new Uint8ClampedArray(bytes), new DataView(bytes.buffer), bytes.buffer]) {
      const v = await checkAttestation({ ...good(), bytes: other });
      expect(v.trusted, other.constructor.name).to.equal(false);
      if (!v.trusted) expect(v.reason).to.equal('bytes must be a Uint8Array');
    }
  });

  it('refuses a file over 1 MiB', async () => {
    const bytes = new Uint8Array(MAX_BYTES + 1).fill(0x0a);
    const v = await checkAttestation({ ...good(), bytes, sha256: await sha256(bytes) });
    expect(v).to.include({ trusted: false, sha256: null, reason: `bytes must be at most ${MAX_BYTES} bytes` });
  });

  it('refuses a symbol key or a non-enumerable extra field', async () => {
    const withSymbol = { ...good(), [Symbol('x')]: 1 };
    const hidden = Object.defineProperty(good(), 'extra', { value: 1, enumerable: false });
    for (const a of [withSymbol, hidden]) {
      const v = await checkAttestation(a);
      expect(v.trusted).to.equal(false);
      if (!v.trusted) expect(v.reason).to.match(/^unexpected field /);
    }
  });

  it('refuses a field that is a getter, which could answer differently each time', async () => {
    const a = good();
    let reads = 0;
    Object.defineProperty(a, 'users', { get: () => (reads++ === 0 ? 'enforce' : 'off'), enumerable: true });
    const v = await checkAttestation(a);
    expect(v).to.include({ trusted: false, reason: 'field users must be a data property' });
  });

  it('refuses non-finite numbers', async () => {
    for (const [field, value] of [
      ['ino', NaN],
      ['mtimeMs', Infinity],
      ['uid', NaN],
    ] as const) {
      const v = await checkAttestation({ ...good(), [field]: value });
      expect(v.trusted, field).to.equal(false);
      if (!v.trusted) expect(v.reason).to.match(new RegExp(`^${field} must be`));
    }
  });

  it('hashes and decodes a copy, so changing bytes after the call changes nothing', async () => {
    const a = good();
    const bytes = a.bytes as Uint8Array;
    const text = new TextDecoder().decode(bytes);
    const pending = checkAttestation(a);
    bytes.fill(0x41);
    const v = await pending;
    expect(v.trusted).to.equal(true);
    if (v.trusted) expect(v.text).to.equal(text);
  });

  it('checks the secrets policy path with its own parents', async () => {
    const a = decode(fixtures.get('good-secrets-policy')!.attestation);
    const v = await checkAttestation({ ...a, parents: good().parents });
    expect(v).to.include({ trusted: false, path: '/etc/slicc/secrets-policy.toml', reason: 'parent /etc/slicc is missing' });
  });
});

describe('parentsOf', () => {
  it('lists the directories above each policy file from /', () => {
    expect(parentsOf('/etc/fnox/config.toml')).to.deep.equal(['/', '/etc', '/etc/fnox']);
    expect(parentsOf('/etc/slicc/secrets-policy.toml')).to.deep.equal(['/', '/etc', '/etc/slicc']);
  });
});
