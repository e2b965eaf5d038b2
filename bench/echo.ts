// The baseline: a page on the vault origin that echoes every message on the port it is handed,
// whole (a `status` comes back as `{ v, id, op }`; a `redact` with its texts, their bytes
// transferred back, so a reply costs the embedder what the vault's does). A `put` is the baseline of
// a stored change: one readwrite transaction putting the name and value into a store of its own,
// answered once it completes.
const bare = new Promise<IDBDatabase>((resolve, reject) => {
  const open = indexedDB.open('bench-bare-write', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('values');
  open.onsuccess = () => resolve(open.result);
  open.onerror = () => reject(open.error);
});

async function write(name: string, value: string): Promise<void> {
  const tx = (await bare).transaction('values', 'readwrite');
  tx.objectStore('values').put({ name, value }, name);
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
}

addEventListener('message', async (event) => {
  const port = event.ports[0];
  if (!port) return;
  port.onmessage = async ({ data }) => {
    if (data?.op === 'put') {
      await write(data.name, data.value);
      port.postMessage({ v: 1, id: data.id });
      return;
    }
    const texts: unknown[] = Array.isArray(data?.texts) ? data.texts : [];
    const transfer = [...new Set(texts.filter((t): t is Uint8Array => t instanceof Uint8Array).map((t) => t.buffer as ArrayBuffer))];
    port.postMessage(data, transfer);
  };
  port.postMessage({ op: 'welcome' });
});
