// The floors: the least a vault frame must do for a figure, by the README, in a bare document at
// the vault origin; the bench prints each beside the vault's and the echo's. Boot: read the two
// settings files (`no-store`, as the frame does) and open the vault's database. `status`: a reply
// of the vault's status as the bench hands it (`shape`), so the clone is the same. `put`: one
// readwrite transaction over the stores and indexes a vault write touches, with the reads it must
// check (the key's check value, the record by name, the namespace's row) and its three writes, the
// value sealed with AES-GCM first, then the `placeholders` event the README sends before the reply
// (every live placeholder, sorted). `redact`: each text read once (a search for a
// character it doesn't hold) and answered with one span replaced, as a text holding a value is.
// Anything else is echoed.
import { openVaultDb } from '../src/store/schema.ts';

const ready = Promise.all([
  ...['/config.json', '/embedders.json'].map((f) => fetch(f, { cache: 'no-store' }).then((r) => r.json())),
  openVaultDb('bench-floor'),
]);

const NS = 'https://floor.example';
let key: CryptoKey | undefined;
let rev = 0;
let status: { scrub?: unknown } | undefined;
/** The floor namespace's placeholders, sorted. */
let placeholders: string[] = [];
const hex = (n: number) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, '0')).join('');

async function sealed(value: string, id: string, name: string) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const additionalData = new TextEncoder().encode(`${NS}\n${name}\n${id}`);
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData }, key!, new TextEncoder().encode(value));
  return { iv, ciphertext };
}

const recordOf = async (name: string, value: string) => {
  const id = crypto.randomUUID();
  const now = Date.now();
  const placeholder = `fnox_proxy_${hex(12)}`;
  return {
    id,
    namespace: NS,
    name,
    kind: 'secret',
    source: 'page',
    placeholder,
    ...(await sealed(value, id, name)),
    createdAt: now,
    updatedAt: now,
    revision: 1,
  };
};

/** `records` records in the floor's namespace, its row and the key's check value. */
async function seed(records: number) {
  const [, , db] = await ready;
  key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const all = await Promise.all(Array.from({ length: records }, (_, i) => recordOf(`SEED_${i}`, `sk-${hex(24)}`)));
  placeholders = all.map((r) => r.placeholder).sort();
  const tx = db.transaction(['keys', 'records', 'namespaces'], 'readwrite');
  await Promise.all([
    tx.objectStore('keys').put({ slot: 'check', id: 'floor' } as never),
    tx.objectStore('namespaces').put({ namespace: NS, rev: ++rev, recordCount: records } as never),
    ...all.map((r) => tx.objectStore('records').put(r as never)),
    tx.done,
  ]);
}

async function put(name: string, value: string): Promise<string> {
  const [, , db] = await ready;
  const record = await recordOf(name, value);
  const tx = db.transaction(['records', 'namespaces', 'audit', 'keys'], 'readwrite');
  await Promise.all([
    tx.objectStore('keys').get('check'),
    tx.objectStore('records').index('byName').get([NS, name]),
    tx.objectStore('namespaces').get(NS),
    tx.objectStore('records').put(record as never),
    tx.objectStore('namespaces').put({ namespace: NS, rev: ++rev } as never),
    tx.objectStore('audit').add({ namespace: NS, at: Date.now(), type: 'seal', name, kind: 'secret', source: 'page', rotated: false } as never),
  ]);
  await tx.done;
  return record.placeholder;
}

/** Where `p` goes in the sorted list (as the vault inserts a new name's). */
function insert(p: string) {
  let lo = 0;
  for (let hi = placeholders.length; lo < hi; ) {
    const mid = (lo + hi) >>> 1;
    if (placeholders[mid]! < p) lo = mid + 1;
    else hi = mid;
  }
  placeholders = [...placeholders.slice(0, lo), p, ...placeholders.slice(lo)];
}

const replaced = (text: string) => {
  const at = text.indexOf('\0') + (text.length >> 1);
  return `${text.slice(0, at)}[REDACTED]${text.slice(at + 40)}`;
};

addEventListener('message', async (event) => {
  const port = event.ports[0];
  if (!port) return;
  await ready;
  port.onmessage = async ({ data }) => {
    if (data?.op === 'seed') await seed(data.records);
    else if (data?.op === 'shape') status = data.status;
    else if (data?.op === 'put') {
      insert(await put(data.name, data.value));
      port.postMessage({ v: 1, op: 'placeholders', placeholders, scrub: status?.scrub });
    } else if (data?.op === 'status' && status) return port.postMessage({ v: 1, id: data.id, op: 'status', status });
    else if (data?.op === 'redact') return port.postMessage({ v: 1, id: data.id, op: 'redact', texts: data.texts.map(replaced), hits: [] });
    else return port.postMessage(data);
    port.postMessage({ v: 1, id: data.id });
  };
  port.postMessage({ op: 'welcome' });
});
