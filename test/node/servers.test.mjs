// Every server `npm start` and the tests run listens on 127.0.0.1 only (README, Two commands), and
// serve-dist says what to do when there is nothing built to serve. No traffic leaves this machine:
// the checks read each server's own address, and try [::1], the other loopback address.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { demoServerConfig } from '../../scripts/demo-server.mjs';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { baseServerConfig, startServer, vaultServerConfig } from '../../scripts/vault-server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Whether a connection to `host`:`port` is accepted (true) or refused (false). */
const accepts = (host, port) =>
  new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', (error) => (['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH'].includes(error.code) ? resolve(false) : reject(error)));
  });

async function listensOnLoopbackOnly(server) {
  const { address, port } = server.address();
  assert.equal(address, '127.0.0.1');
  assert.equal(await accepts('127.0.0.1', port), true, 'it answers on 127.0.0.1');
  assert.equal(await accepts('::1', port), false, 'it answers nowhere else, not even on [::1]');
}

test("npm start's vault and demo servers listen on 127.0.0.1 only", async () => {
  const vault = await startServer(vaultServerConfig({ port: 0, embedders: [] }));
  const demo = await startServer(demoServerConfig({ port: 0, vaultOrigin: 'http://vault.sliccy.localhost:1' }));
  try {
    await listensOnLoopbackOnly(vault.server);
    await listensOnLoopbackOnly(demo.server);
  } finally {
    await Promise.all([vault.stop(), demo.stop()]);
  }
});

test("a dev server named 'localhost', as the test runner's own is, listens on 127.0.0.1 only", async () => {
  const server = await startServer(baseServerConfig({ port: 0, hostname: 'localhost' }));
  try {
    await listensOnLoopbackOnly(server.server);
  } finally {
    await server.stop();
  }
});

test('serve-dist listens on 127.0.0.1 only', async () => {
  const server = await serveDist({ dir: root, port: 0, embedders: [] });
  try {
    await listensOnLoopbackOnly(server);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('serve-dist without a built site says to run npm run build first, without a stack', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'no-dist-'));
  try {
    const { code, stderr } = await new Promise((resolve) =>
      execFile('node', [join(root, 'scripts/serve-dist.mjs'), '0', empty], (error, _out, stderr) => resolve({ code: error?.code ?? 0, stderr })),
    );
    assert.equal(code, 1);
    assert.match(stderr, /run `npm run build` first/);
    assert.doesNotMatch(stderr, /ENOENT|\n\s+at /);
  } finally {
    rmSync(empty, { recursive: true });
  }
});
