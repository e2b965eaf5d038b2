// Serves a built site (dist/) the way production must: static files with the headers of README,
// Documents and hosting. `[EMBEDDERS=…] node scripts/serve-dist.mjs [PORT] [DIR]` previews `npm run build`
// (EMBEDDERS adds origins to the built embedders.json, as for npm start); the tests use it to run
// the built documents under their real CSP.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_HEADERS, SHARED_HEADERS as SHARED, documentHeaders } from './vault-server.mjs';

export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

/** A file named by its content (`vault-frame-<hash>.js`, `chunk-<hash>.js`) never changes. */
export const cacheControl = (file) => (/-[A-Z0-9]{8}\.js$/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');

/** Starts a static server of `dir` on `port` (0: any); `embedders` sets frame-ancestors. */
export function serveDist({ dir, port = 0, hostname = '127.0.0.1', embedders }) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = normalize(path === '/' ? '/index.html' : path);
    try {
      // The embedders it is told (EMBEDDERS added) are those it answers, as npm start does.
      const body = file === '/embedders.json' && embedders ? JSON.stringify(embedders) : await readFile(join(dir, file));
      const headers = file.endsWith('.html') ? documentHeaders(`/static${file}`, embedders) : file === '/client.js' ? CLIENT_HEADERS : SHARED;
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', ...headers, 'Cache-Control': cacheControl(file) });
      res.end(body);
    } catch {
      res.writeHead(404, SHARED).end();
    }
  });
  return new Promise((resolve) => server.listen(port, hostname, () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `node scripts/serve-dist.mjs [PORT] [DIR]`: DIR is dist/ unless given.
  const dir = process.argv[3] ?? fileURLToPath(new URL('../dist/', import.meta.url));
  if (!existsSync(join(dir, 'embedders.json'))) {
    console.error(`serve-dist: there is no built site in ${dir}: run \`npm run build\` first, then this again.`);
    process.exit(1);
  }
  const { embeddersFromEnv } = await import('./embedders-env.mjs');
  const built = JSON.parse(await readFile(join(dir, 'embedders.json'), 'utf8'));
  const embedders = [...new Set([...built, ...(await embeddersFromEnv(process.env.EMBEDDERS))])];
  const server = await serveDist({ dir, port: Number(process.argv[2] ?? 8703), embedders });
  console.log(`dist/ at http://vault.sliccy.localhost:${server.address().port}/ (frame-ancestors ${embedders.join(' ')})`);
}
