// Every dev server here listens on the loopback address it names, and only there (README, Two
// commands). @web/dev-server-core 0.7 (under @web/dev-server 0.4.6 and @web/test-runner 0.20)
// listens with `host: undefined` whenever the hostname is 'localhost' or '127.0.0.1'
// (DevServer.start: "in case of localhost the host should be undefined, otherwise some browsers
// connect to it via local network"), and Node then listens on every interface (`::`): the vault,
// which hands out keys to pages of its origin, was reachable from the network. This puts the host
// back: a server whose hostname is 'localhost' or '127.0.0.1' listens on 127.0.0.1. Imported by
// scripts/vault-server.mjs, so it holds for `npm start`, the test runner's servers and the e2e ones.
import { createRequire } from 'node:module';

export const LOOPBACK = '127.0.0.1';
const LOOPBACK_NAMES = ['localhost', '127.0.0.1'];

const { DevServer } = createRequire(import.meta.url)('@web/dev-server-core');
if (!DevServer.prototype.start.loopback) {
  const start = DevServer.prototype.start;
  DevServer.prototype.start = function startOnLoopback() {
    const server = this.server;
    if (server && LOOPBACK_NAMES.includes(this.config.hostname)) {
      const listen = server.listen;
      server.listen = (options, ...rest) =>
        listen.call(server, typeof options === 'object' && options !== null ? { ...options, host: LOOPBACK } : options, ...rest);
    }
    return start.call(this);
  };
  DevServer.prototype.start.loopback = true;
}
