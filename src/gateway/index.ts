// The embedding API (README, Embedding API; Documents and hosting): the frame's start, its
// settings, the hello, ports, roles and FIFO, and the page ops' parser table.
export { takeEarlyStart } from './boot.ts';
export { startVaultFrame } from './frame.ts';
export { Gateway } from './gateway.ts';
export { loadSettings, originAllowed } from './settings.ts';
