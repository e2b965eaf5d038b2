// `npm start`: the vault and its demo embedder, on two same-site origins, and the vault answering
// the origins in EMBEDDERS too (README, Embed it in your own page). Both servers run in this one
// process. SIGINT and SIGTERM stop them, then this process, with the signal's exit status; so does
// the end of the parent (`npm start` killed outright): nothing it started outlives it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };
const servers = [];
let stopping = false;

/** Stops every server, then exits as if killed by `signal` (128 + its number), or with `status`. */
async function stop(signal, status = 128 + SIGNALS[signal]) {
  if (stopping) return;
  stopping = true;
  clearInterval(parentWatch);
  // A browser's keep-alive connection must not hold the exit: stop waiting after 3 s.
  const late = setTimeout(() => process.exit(status), 3000);
  await Promise.allSettled(servers.map((server) => server.stop()));
  clearTimeout(late);
  process.exit(status);
}
for (const signal of Object.keys(SIGNALS)) process.on(signal, () => void stop(signal));
// `npm start` passes SIGINT and SIGTERM on to its child; without the `exec` in package.json that
// child would be a shell, which dies without passing them further. And when npm itself is killed
// outright (SIGKILL), this process is re-parented: it then stops as for SIGTERM.
const parent = process.ppid;
const parentWatch = setInterval(() => process.ppid !== parent && void stop('SIGTERM'), 500);

ensureDeps();
if (existsSync(`${root}scripts/endpoints.mjs`)) execFileSync('node', ['scripts/endpoints.mjs'], { cwd: root, stdio: 'inherit' });

const { default: vaultConfig, demoOrigin, demoPort, vaultOrigin, embedders } = await import('../web-dev-server.config.mjs');
const { demoServerConfig } = await import('./demo-server.mjs');
const { startServer } = await import('./vault-server.mjs');

/** Whether `port` can be listened on at 127.0.0.1 (the dev server reports a taken port only as an uncaught error). */
const portFree = (port) =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** Starts one server; a port in use stops the start, naming the variable that moves it. */
async function start(config, variable) {
  if (!(await portFree(config.port))) {
    console.error(
      `npm start: port ${config.port} is in use (another npm start?). Stop what uses it, or choose another port: ${variable}=${config.port + 10} npm start`,
    );
    await stop('SIGTERM', 1);
  }
  servers.push(await startServer(config));
}

// Both servers live in this process, so its exit ends them even if a signal came mid-start.
await start(vaultConfig, 'VAULT_PORT');
await start(demoServerConfig({ port: demoPort, vaultOrigin }), 'DEMO_PORT');
const others = embedders.filter((origin) => origin !== demoOrigin);
console.log(`slicc-vault ${JSON.parse(readFileSync(`${root}package.json`, 'utf8')).version}
  vault:     ${vaultOrigin}/
  demo:      ${demoOrigin}/   ← open this one
  embedders: ${[demoOrigin, ...others].join(' ')}${others.length ? '' : ' (EMBEDDERS adds yours)'}
Both names resolve to this machine in Chromium (any *.localhost name does). Ctrl-C stops.`);
