// The vault frame before its settings are in (README, Limits): it holds its parent's hellos, at most
// 16, and answers them once the settings come; a message from any other window is never held.
import { expect, waitUntil } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { openVaultDb } from '../../src/store/index.ts';
import { startVaultFrame } from '../../src/gateway/index.ts';
import { MAX_HELD_HELLOS } from '../../src/limits.ts';

const ORIGIN = 'https://seven.sliccy.ai';
const config = { name: 'test', passphraseIterations: 1000, requestLifetimeMs: 300_000 };

describe('the frame before its settings are in', () => {
  it(`holds only its parent's hellos, at most ${MAX_HELD_HELLOS}, and answers them when the settings come`, async () => {
    const dbName = `frame-start-${crypto.randomUUID()}`;
    const parent = {};
    const stranger = {};
    const listeners: ((event: MessageEvent) => void)[] = [];
    const win = {
      parent,
      location: { origin: location.origin, ancestorOrigins: undefined },
      addEventListener: (type: string, listener: (event: MessageEvent) => void) => type === 'message' && listeners.push(listener),
      removeEventListener: () => {},
    } as unknown as Window;
    let settle!: (settings: { config: typeof config; embedders: string[] }) => void;
    const settings = new Promise<{ config: typeof config; embedders: string[] }>((resolve) => (settle = resolve));
    const frame = startVaultFrame(win, { early: { settings, db: openVaultDb(dbName) } });
    try {
      const welcomes: string[] = [];
      const hello = (source: object, label: string) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = ({ data }) => data?.op === 'welcome' && welcomes.push(label);
        const event = { data: { type: 'slicc-vault', v: 1, op: 'hello' }, source, origin: ORIGIN, ports: [channel.port2] };
        for (const listener of listeners) listener(event as unknown as MessageEvent);
      };
      for (let i = 0; i < 10; i++) hello(stranger, 'stranger');
      for (let i = 0; i < MAX_HELD_HELLOS + 4; i++) hello(parent, `held ${i}`);
      settle({ config, embedders: [ORIGIN] });
      await frame.ready;
      await waitUntil(() => welcomes.length === MAX_HELD_HELLOS, `not exactly ${MAX_HELD_HELLOS} held hellos answered`);
      // A hello after the settings is answered at once; by then every held one has been.
      hello(parent, 'after');
      await waitUntil(() => welcomes.includes('after'), 'no welcome for the hello after the settings');
      expect(welcomes.sort()).to.deep.equal([...Array.from({ length: MAX_HELD_HELLOS }, (_, i) => `held ${i}`), 'after'].sort());
    } finally {
      frame.stop();
      await deleteDB(dbName);
    }
  });
});
