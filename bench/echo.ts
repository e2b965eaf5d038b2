// The baseline: a page on the vault origin that echoes every message on the port it is handed.
addEventListener('message', (event) => {
  const port = event.ports[0];
  if (!port) return;
  port.onmessage = ({ data }) => port.postMessage({ v: 1, id: data.id, op: data.op });
  port.postMessage({ op: 'welcome' });
});
