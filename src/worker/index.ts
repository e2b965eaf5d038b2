// The vault's dedicated worker (README, Limits: heavy work off the main thread): its client, one
// per vault document, for the two jobs a slice can't split (a scrubber's tables, a policy file's parse).
export { VaultWorker, parsePolicyFileOffThread, vaultWorker } from './client.ts';
