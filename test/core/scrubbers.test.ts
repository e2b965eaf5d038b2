// A document's compiled scrubbers (README, Scrub state), built directly over real WebCrypto and the
// vault's worker: locking stops value use, never scrubbing, so an op that scrubs right after a lock
// gets the values written just before it.
import { expect } from '@open-wc/testing';
import { Scrubbers } from '../../src/core/scrubbers.ts';
import { type HeldKey, type StoredRecord, encryptValue } from '../../src/store/index.ts';

const NS = 'https://seven.sliccy.ai';
const token = () => `tok_${crypto.randomUUID().replaceAll('-', '')}`;

describe("a document's scrubbers, across a lock", () => {
  let held: HeldKey | null;
  let state: { version: number; records: StoredRecord[] };
  let scrubbers: Scrubbers;

  /** A record of `value`, sealed under the held key, added to the namespace as a new version. */
  async function add(name: string, value: string): Promise<string> {
    const id = crypto.randomUUID();
    const placeholder = `fnox_proxy_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const sealed = await encryptValue(held!.key, value, { id, namespace: NS, name });
    const record = {
      id,
      namespace: NS,
      name,
      kind: 'secret',
      source: 'settings',
      placeholder,
      ...sealed,
      createdAt: 1,
      updatedAt: 1,
      revision: 1,
    } as StoredRecord;
    state = { version: state.version + 1, records: [...state.records, record] };
    return placeholder;
  }

  beforeEach(async () => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    held = { key, check: 'check', epoch: 1 };
    state = { version: 0, records: [] };
    scrubbers = new Scrubbers(
      async () => state,
      () => held,
    );
    await add('FIRST', token());
    await scrubbers.refresh(NS);
  });
  afterEach(() => scrubbers.close());

  it('scrubs a text at once with a value this document wrote just before a lock', async () => {
    const value = token();
    const placeholder = await add('LATE', value);
    scrubbers.wrote(NS, { name: 'LATE', placeholder, value }, state.version);
    held = null;
    expect(scrubbers.textNow(NS, state.version)?.(`path/${value}`)).to.equal(`path/${placeholder}`);
  });

  it("compiles another document's value written just before a lock with the key its compile was scheduled with", async () => {
    const value = token();
    const placeholder = await add('ELSEWHERE', value);
    scrubbers.soon(NS);
    held = null;
    const compiled = await scrubbers.refresh(NS);
    expect(compiled?.version).to.equal(state.version);
    expect(compiled?.scrubber.redact(`path/${value}`).text).to.equal(`path/${placeholder}`);
  });
});
