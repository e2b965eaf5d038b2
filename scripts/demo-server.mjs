// The demo embedder's origin: serves demo/ at its root and tells the page where the vault is. Like
// bios, the page is cross-origin isolated (COOP same-origin, COEP require-corp), so the vault's
// documents must be embeddable from such a page.
import { EMBEDDER_HEADERS, baseServerConfig } from './vault-server.mjs';

export function demoServerConfig({ port, hostname = '127.0.0.1', vaultOrigin }) {
  return {
    ...baseServerConfig({ port, hostname }),
    middleware: [
      async (ctx, next) => {
        if (ctx.path === '/demo-env.json') {
          ctx.type = 'application/json';
          ctx.body = JSON.stringify({ vaultOrigin });
          return;
        }
        if (ctx.path === '/' || ctx.path === '/index.html') ctx.url = '/demo/index.html';
        await next();
        ctx.set(EMBEDDER_HEADERS);
      },
    ],
  };
}
