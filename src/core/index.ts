// The document's vault (README, Scrub state): the served namespaces in memory and their sync
// between documents, what it answers from them, what it changes, and its compiled scrubbers. The
// core imports no op: each op defines the narrow port it needs of `reads` and `writes`.
export { Scrubbers } from './scrubbers.ts';
export { Vault } from './vault.ts';
export type { GivenFile } from './writes.ts';
