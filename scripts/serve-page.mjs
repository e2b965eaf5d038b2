// `node scripts/serve-page.mjs FOLDER [PORT]`: serves a folder of your own as bios serves itself,
// cross-origin isolated (COOP same-origin, COEP require-corp), on 127.0.0.1 (README, Embed it in
// your own page). Any static server sending those two headers does as well.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOOPBACK } from './loopback.mjs';
import { TYPES } from './serve-dist.mjs';
import { EMBEDDER_HEADERS } from './vault-server.mjs';

/** Starts a static server of `dir` on `port` (0: any), with the embedder's headers on every response. */
export function servePage({ dir, port = 0 }) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = path.endsWith('/') ? `${path}index.html` : path;
    try {
      const body = await readFile(join(dir, file));
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache', ...EMBEDDER_HEADERS });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain', ...EMBEDDER_HEADERS }).end('not found');
    }
  });
  return new Promise((done, fail) => {
    server.on('error', fail);
    server.listen(port, LOOPBACK, () => done(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [folder, port = '9000'] = process.argv.slice(2);
  if (!folder) {
    console.error('serve-page: name the folder to serve: node scripts/serve-page.mjs FOLDER [PORT]');
    process.exit(1);
  }
  const server = await servePage({ dir: resolve(folder), port: Number(port) }).catch((error) => {
    console.error(error.code === 'EADDRINUSE' ? `serve-page: port ${port} is in use; name another: node scripts/serve-page.mjs ${folder} PORT` : error.message);
    process.exit(1);
  });
  console.log(`${resolve(folder)} at http://127.0.0.1:${server.address().port}/ (cross-origin isolated); open it by its *.sliccy.localhost name`);
}
