// The embedding API (README, Embedding API; Documents and hosting): the frame's start, its
// settings, the hello, ports, roles and FIFO, and the page ops' parser table.
export { type EarlyStart, takeEarlyStart } from './boot.ts';
export { PAGE_OPS, type PageCommand, SEAL_SOURCE, parseAgentCommand, parsePageCommand } from './commands.ts';
export { type FrameOptions, startVaultFrame } from './frame.ts';
export { Gateway } from './gateway.ts';
export { loadSettings, originAllowed, parseConfig, parseEmbedders } from './settings.ts';
