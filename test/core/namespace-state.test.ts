// A namespace in memory (README, Scrub state), built directly: the live placeholders it keeps for
// the `placeholders` event follow every delta, and a rotation doesn't make it list them again.
import { expect } from '@open-wc/testing';
import { emptyMeta, type NamespaceMeta, type StoredRecord } from '../../src/store/index.ts';
import { NamespaceState } from '../../src/core/namespace-state.ts';

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

describe('a namespace in memory, over generated deltas', () => {
  /** Seeded (mulberry32), so a failure names its seed and happens again. */
  const prng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };

  it('lists every record by name and the live placeholders sorted, as a sort from scratch does, after any sequence of adds, rotations, removals and restores', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = prng(seed);
      const pick = (n: number) => Math.floor(random() * n);
      const held = new Map<string, StoredRecord>();
      for (let i = 0; i < pick(20); i++) {
        const name = `N${pick(60)}`;
        held.set(name, record(name, 1000 + i));
      }
      const state = new NamespaceState(NS, [], { meta: meta(1), records: [...held.values()], stored: undefined, requests: [], audit: [], auditMore: false });
      let rev = 1;
      let next = 5000;
      for (let step = 0; step < 60; step++) {
        // Read the lists now and then, so some deltas meet them held and some meet them unbuilt.
        if (pick(3) === 0) state.all();
        if (pick(3) === 0) state.livePlaceholders();
        const batch: StoredRecord[] = [];
        for (let k = 0; k <= pick(3); k++) {
          const names = [...held.keys()];
          const kind = pick(4);
          const name = kind === 0 || names.length === 0 ? `N${pick(200)}` : names[pick(names.length)]!;
          const before = held.get(name);
          const changed =
            !before || kind === 0
              ? record(name, before ? Number.parseInt(before.placeholder.slice(11), 16) : next++)
              : kind === 1
                ? record(name, Number.parseInt(before.placeholder.slice(11), 16), { revision: step } as never)
                : kind === 2
                  ? record(name, Number.parseInt(before.placeholder.slice(11), 16), { removedAt: step + 1 })
                  : record(name, Number.parseInt(before.placeholder.slice(11), 16));
          held.set(name, changed);
          batch.push(changed);
        }
        rev++;
        expect(state.apply({ namespace: NS, rev, meta: meta(rev), records: batch })).to.equal(true);
        const names = [...held.keys()].sort();
        const live = [...held.values()]
          .filter((r) => r.removedAt === undefined)
          .map((r) => r.placeholder)
          .sort();
        expect(
          state.all().map((r) => r.name),
          `seed ${seed}, step ${step}`,
        ).to.deep.equal(names);
        expect(state.all().map((r) => r.removedAt)).to.deep.equal(names.map((n) => held.get(n)!.removedAt));
        expect([...state.livePlaceholders()], `seed ${seed}, step ${step}`).to.deep.equal(live);
      }
    }
  });

  it('never changes a list it handed out when a new name comes', () => {
    const state = new NamespaceState(NS, [], { meta: meta(1), records: [record('B', 2)], stored: undefined, requests: [], audit: [], auditMore: false });
    const all = state.all();
    const live = state.livePlaceholders();
    state.apply({ namespace: NS, rev: 2, meta: meta(2), records: [record('A', 1)] });
    expect(all.map((r) => r.name)).to.deep.equal(['B']);
    expect(live).to.deep.equal([ph(2)]);
    expect(state.all().map((r) => r.name)).to.deep.equal(['A', 'B']);
  });

  it('never changes a list it handed out when a record in it is rotated or removed', () => {
    const state = new NamespaceState(NS, [], {
      meta: meta(1),
      records: [record('A', 1), record('B', 2)],
      stored: undefined,
      requests: [],
      audit: [],
      auditMore: false,
    });
    const all = state.all();
    const [a, b] = all;
    state.apply({ namespace: NS, rev: 2, meta: meta(2), records: [record('A', 1, { revision: 2 })] });
    state.apply({ namespace: NS, rev: 3, meta: meta(3), records: [record('B', 2, { removedAt: 5 })] });
    expect(all[0], 'the rotated record, as it was read').to.equal(a);
    expect(all[1], 'the removed record, as it was read').to.equal(b);
    expect(state.all().map((r) => [r.revision, r.removedAt])).to.deep.equal([
      [2, undefined],
      [undefined, 5],
    ]);
  });
});
