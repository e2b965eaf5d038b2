// The vault documents' own BroadcastChannel: what changed in which namespace (`null`: all of
// them), so every document pushes the same events to its ports. Never a value.
import type { Delta } from './meta.ts';

export const CHANNEL = 'slicc-vault';

/**
 * What changed in a namespace: its set of values (`placeholders` event), its audit log, accepted
 * policy or registered endpoints (`changed`), or its status (lock, requests, reminder: `status`).
 */
export type Change = 'values' | 'audit' | 'status';
export interface BusMessage {
  type: 'changed';
  namespace: string | null;
  changes: Change[];
  /** What the write changed, with the namespace's revision after it; absent, receivers reload. */
  delta?: Delta;
  /** A sign-in's value the page is asked to renew: every document's page ports get the `refresh` event. */
  refresh?: RefreshAsk;
}

/** The `refresh` event's fields (README, Embedding API: events). */
export interface RefreshAsk {
  name: string;
  provider: string;
  request: string;
}

/** Tells every vault document of the origin, from a document that has no Vault (the popup). */
export function announce(namespace: string | null, changes: Change[]): void {
  const bus = new BroadcastChannel(CHANNEL);
  bus.postMessage({ type: 'changed', namespace, changes } satisfies BusMessage);
  bus.close();
}
