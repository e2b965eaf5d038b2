// Forward (README, Forward): bios's exit router asks the vault to fill a request's head; the
// response comes back through the vault, scrubbed.
export { forward } from './forward.ts';
export { type ForwardRequest, parseForward } from './parse.ts';
