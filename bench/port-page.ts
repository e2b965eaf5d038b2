// Runs in Chromium on the embedder origin: `status` round trips through the real gateway, next to
// the same number through a bare MessageChannel echo on the vault origin, measured in one run.
const vault = new URLSearchParams(location.search).get('vault')!;

async function open(path: string): Promise<MessagePort> {
  const frame = document.createElement('iframe');
  frame.src = `${vault}${path}`;
  document.body.append(frame);
  await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  const channel = new MessageChannel();
  const welcome = new Promise((resolve) => (channel.port1.onmessage = resolve));
  frame.contentWindow!.postMessage({ type: 'slicc-vault', v: 1, op: 'hello', role: 'page' }, vault, [channel.port2]);
  await welcome;
  return channel.port1;
}

/** Sequential round trips (one in flight) and pipelined ones (all sent at once), per second. */
async function measure(port: MessagePort, count: number) {
  let id = 0;
  const next = () =>
    new Promise((resolve) => {
      port.onmessage = resolve;
      port.postMessage({ v: 1, id: ++id, op: 'status' });
    });
  let start = performance.now();
  for (let i = 0; i < count; i++) await next();
  const sequential = count / ((performance.now() - start) / 1000);
  start = performance.now();
  await new Promise<void>((resolve) => {
    let left = count;
    port.onmessage = () => --left === 0 && resolve();
    for (let i = 0; i < count; i++) port.postMessage({ v: 1, id: ++id, op: 'status' });
  });
  const pipelined = count / ((performance.now() - start) / 1000);
  return { sequential, pipelined };
}

(window as any).runBench = async (count: number) => {
  const gateway = await open('/');
  const echo = await open('/bench/echo.html');
  await measure(gateway, 100); // warm up
  await measure(echo, 100);
  return { gateway: await measure(gateway, count), echo: await measure(echo, count) };
};
(window as any).benchReady = true;
