// Forward (README, Forward): bios's exit router asks the vault to fill a request's head; the
// response comes back through the vault, scrubbed.
export { type ForwardVault, forward } from './forward.ts';
export { type ForwardRequest, parseForward } from './parse.ts';
export { relayResponse } from './response.ts';
