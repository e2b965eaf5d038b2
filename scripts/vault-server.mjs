// The vault's documents served as the static site would be, with the headers production must send
// (README, Documents and hosting). Used by `npm start` (web-dev-server.config.mjs) and by the test runner.
import { startDevServer } from '@web/dev-server';
// Before any server starts: dev servers listen on 127.0.0.1 only (scripts/loopback.mjs says why).
import './loopback.mjs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const rootDir = fileURLToPath(new URL('..', import.meta.url));
const staticEmbedders = () => JSON.parse(readFileSync(new URL('../static/embedders.json', import.meta.url), 'utf8'));

/** The embedder's client, served for pages to import (README, Embed it in your own page). */
export const CLIENT_SOURCE = '/src/client/client.ts';

const DOCUMENTS = {
  '/': '/static/index.html',
  '/index.html': '/static/index.html',
  '/button.html': '/static/button.html',
  '/popup.html': '/static/popup.html',
  '/panel.html': '/static/panel.html',
  '/config.json': '/static/config.json',
  '/embedders.json': '/static/embedders.json',
  '/lock.css': '/static/lock.css',
  '/favicon.svg': '/static/favicon.svg',
  '/client.js': CLIENT_SOURCE,
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

/** The client's headers: any page may import it (a module script of another origin needs CORS). */
export const CLIENT_HEADERS = { ...SHARED_HEADERS, 'Access-Control-Allow-Origin': '*' };

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
 * What the vault origin serves besides its documents (README, Documents and hosting): the modules
 * they load, compiled from `components/` and `src/`, the packages they import, and `package.json`
 * (whose version `src/vault.ts` imports; the build bundles it). Never a test,
 * a script, the demo or anything else of the repository, since any page at the vault origin
 * could ask for the key.
 */
const ASSETS = [/^\/package\.json$/, /^\/components\/[\w./-]+\.(ts|js|css)$/, /^\/src\/[\w./-]+\.(ts|js|json)$/, /^\/node_modules\/[\w@./+-]+$/];
/** The vault-origin pages of the tests (reset, a frame with a test clock, a probe), only when asked for. */
const FIXTURES = /^\/(test\/fixtures|bench)\/[\w.-]+\.(html|ts)$/;

/** Whether the vault origin serves `path` (after the documents' own names are mapped). */
export function servedAtVaultOrigin(path, { fixtures = false } = {}) {
  if (path.includes('..') || path.includes('//') || /\.test\.[a-z]+$/.test(path)) return false;
  return Object.values(DOCUMENTS).includes(path) || ASSETS.some((pattern) => pattern.test(path)) || (fixtures && FIXTURES.test(path));
}

/**
 * A dev-server config for the vault origin. `embedders` replaces `static/embedders.json` when
 * given (tests and `npm start` allow their own embedder origins); `config` likewise `config.json`.
 * `ancestors` (default: the embedders) sets `frame-ancestors`. `fixtures` also serves the tests'
 * vault-origin pages (`test/fixtures/`); only the test runner asks for them.
 */
export function vaultServerConfig({ port, hostname = '127.0.0.1', embedders, config, ancestors = embedders ?? staticEmbedders(), fixtures = false }) {
  return {
    ...baseServerConfig({ port, hostname }),
    middleware: [
      async (ctx, next) => {
        const mapped = DOCUMENTS[ctx.path];
        if (!mapped && !servedAtVaultOrigin(ctx.path, { fixtures })) {
          ctx.status = 404;
          ctx.type = 'text/plain';
          ctx.body = 'not part of the vault';
          ctx.set(SHARED_HEADERS);
          return;
        }
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
        // Every document of the vault gets the production headers; the tests' own pages (one of them
        // plays an embedder) only the shared ones.
        const headers =
          ctx.path.startsWith('/static/') && ctx.path.endsWith('.html')
            ? documentHeaders(ctx.path, ancestors)
            : mapped === CLIENT_SOURCE
              ? CLIENT_HEADERS
              : SHARED_HEADERS;
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
