// The vault's documents served as the static site would be, with the headers production must send
// (README, Documents and hosting). Used by `npm start` (web-dev-server.config.mjs) and by the test runner.
import { startDevServer } from '@web/dev-server';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const rootDir = fileURLToPath(new URL('..', import.meta.url));
const staticEmbedders = () => JSON.parse(readFileSync(new URL('../static/embedders.json', import.meta.url), 'utf8'));

const DOCUMENTS = {
  '/': '/static/index.html',
  '/index.html': '/static/index.html',
  '/button.html': '/static/button.html',
  '/popup.html': '/static/popup.html',
  '/config.json': '/static/config.json',
  '/embedders.json': '/static/embedders.json',
  '/lock.css': '/static/lock.css',
  '/favicon.svg': '/static/favicon.svg',
};

/** `frame-ancestors` sources for the embedder list: exact origins and `https://*.sliccy.ai` alike. */
export function frameAncestors(embedders) {
  return embedders.length ? embedders.join(' ') : "'none'";
}

/** The headers of every response of the vault origin (README, Documents and hosting). */
export const SHARED_HEADERS = {
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

/** The headers of an embedder page as bios serves it: cross-origin isolated. */
export const EMBEDDER_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

/** The response headers of one vault document (README, Documents and hosting). */
export function documentHeaders(path, embedders) {
  const ancestors = path === '/static/popup.html' ? "'none'" : frameAncestors(embedders);
  return {
    'Content-Security-Policy': `default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors ${ancestors}`,
    ...SHARED_HEADERS,
    ...(path === '/static/popup.html' ? { 'Cross-Origin-Opener-Policy': 'same-origin' } : {}),
  };
}

/**
 * A dev-server config for the vault origin. `embedders` replaces `static/embedders.json` when
 * given (tests and `npm start` allow their own embedder origins); `config` likewise `config.json`.
 * `ancestors` (default: the embedders) sets `frame-ancestors`.
 */
export function vaultServerConfig({ port, hostname = '127.0.0.1', embedders, config, ancestors = embedders ?? staticEmbedders() }) {
  return {
    ...baseServerConfig({ port, hostname }),
    middleware: [
      async (ctx, next) => {
        const mapped = DOCUMENTS[ctx.path];
        if (mapped === '/static/embedders.json' && embedders) {
          ctx.type = 'application/json';
          ctx.body = JSON.stringify(embedders);
        } else if (mapped === '/static/config.json' && config) {
          ctx.type = 'application/json';
          ctx.body = JSON.stringify(config);
        } else if (mapped) {
          ctx.url = mapped;
        }
        await next();
        const headers = ctx.path.startsWith('/static/') && ctx.path.endsWith('.html') ? documentHeaders(ctx.path, ancestors) : SHARED_HEADERS;
        ctx.set(headers);
      },
    ],
  };
}

/** What every dev server here shares: the repo root, bare imports resolved, TypeScript compiled. */
export function baseServerConfig({ port, hostname = '127.0.0.1' }) {
  return { port, hostname, rootDir, nodeResolve: true, plugins: [esbuildPlugin({ ts: true, target: 'esnext' })] };
}

/** Starts a dev server quietly and returns it. */
export function startServer(config) {
  return startDevServer({
    config,
    readCliArgs: false,
    readFileConfig: false,
    autoExitProcess: false,
    logStartMessage: false,
  });
}
