// A namespace in memory (README, Scrub state), built directly: the live placeholders it keeps for
// the `placeholders` event follow every delta, and a rotation doesn't make it list them again.
import { expect } from '@open-wc/testing';
import { emptyMeta, type NamespaceMeta, type StoredRecord } from '../../src/store/index.ts';
import { NamespaceState } from '../../src/core/index.ts';

const NS = 'https://seven.sliccy.ai';
const ph = (n: number) => `fnox_proxy_${n.toString(16).padStart(24, '0')}`;
const record = (name: string, n: number, more: Partial<StoredRecord> = {}) => ({ name, placeholder: ph(n), namespace: NS, ...more }) as StoredRecord;
const meta = (rev: number): NamespaceMeta => ({ ...emptyMeta(NS), rev });

describe('a namespace in memory', () => {
  it('keeps its live placeholders sorted through adds, rotations, removals and restores', () => {
    const state = new NamespaceState(NS, [], {
      meta: meta(1),
      records: [record('B', 2), record('A', 3)],
      stored: undefined,
      requests: [],
      audit: [],
      auditMore: false,
    });
    expect(state.livePlaceholders()).to.deep.equal([ph(2), ph(3)]);
    const listed = state.livePlaceholders();

    state.apply({ namespace: NS, rev: 2, meta: meta(2), records: [record('A', 3, { revision: 2 } as never)] });
    expect(state.livePlaceholders(), 'a rotation keeps the list').to.equal(listed);

    state.apply({ namespace: NS, rev: 3, meta: meta(3), records: [record('C', 1)] });
    expect(state.livePlaceholders()).to.deep.equal([ph(1), ph(2), ph(3)]);

    state.apply({ namespace: NS, rev: 4, meta: meta(4), records: [record('B', 2, { removedAt: 5 })] });
    expect(state.livePlaceholders()).to.deep.equal([ph(1), ph(3)]);

    state.apply({ namespace: NS, rev: 5, meta: meta(5), records: [record('B', 2)] });
    expect(state.livePlaceholders()).to.deep.equal([ph(1), ph(2), ph(3)]);

    state.replace({ meta: meta(6), records: [record('D', 4)], stored: undefined, requests: [], audit: [], auditMore: false });
    expect(state.livePlaceholders()).to.deep.equal([ph(4)]);
  });
});
