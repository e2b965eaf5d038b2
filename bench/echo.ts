// The baseline: a page on the vault origin that echoes every message on the port it is handed,
// whole (a `status` comes back as `{ v, id, op }`; a `redact` with its texts, untouched).
addEventListener('message', (event) => {
  const port = event.ports[0];
  if (!port) return;
  port.onmessage = ({ data }) => port.postMessage(data);
  port.postMessage({ op: 'welcome' });
});
