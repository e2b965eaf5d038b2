// A gateway built directly in the test page: the embedder's end of a port it said hello on.
import { waitUntil } from '@open-wc/testing';
import type { Gateway } from '../../src/gateway/index.ts';

/**
 * Says hello to the gateway as `parent` (the window the gateway takes for its parent) at `origin`,
 * and answers the embedder's end of the port, with every message it got, once the welcome is in.
 */
export async function helloPort(gateway: Gateway, parent: object, origin: string, role: 'page' | 'agent' = 'page') {
  const channel = new MessageChannel();
  const messages: any[] = [];
  channel.port1.onmessage = ({ data }) => messages.push(data);
  await gateway.hello({
    data: { type: 'slicc-vault', op: 'hello', v: 1, role },
    source: parent,
    origin,
    ports: [channel.port2],
  } as unknown as MessageEvent);
  // A notice between documents can take over waitUntil's default second on a loaded machine.
  await waitUntil(() => messages.some((m) => m.op === 'welcome'), 'no welcome', { timeout: 5000 });
  return { port: channel.port1, messages };
}
