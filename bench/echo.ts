// The baseline: a page on the vault origin that echoes every message on the port it is handed,
// whole (a `status` comes back as `{ v, id, op }`; a `redact` with its texts, their bytes
// transferred back, so a reply costs the embedder what the vault's does).
addEventListener('message', (event) => {
  const port = event.ports[0];
  if (!port) return;
  port.onmessage = ({ data }) => {
    const texts: unknown[] = Array.isArray(data?.texts) ? data.texts : [];
    const transfer = [...new Set(texts.filter((t): t is Uint8Array => t instanceof Uint8Array).map((t) => t.buffer as ArrayBuffer))];
    port.postMessage(data, transfer);
  };
  port.postMessage({ op: 'welcome' });
});
