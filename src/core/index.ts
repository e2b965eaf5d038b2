// The document's vault (README, Scrub state): the served namespaces in memory and their sync
// between documents, what it answers from them, what it changes, and its compiled scrubbers. The
// core imports no op: each op defines the narrow port it needs of `reads` and `writes`.
export { type InEffect, NamespaceState } from './namespace-state.ts';
export { Reads, VAULT_VERSION } from './reads.ts';
export { COMPILE_AFTER_MS, type Compiled, Scrubbers } from './scrubbers.ts';
export { type ChangeListener, Served } from './served.ts';
export { Vault, type VaultOptions } from './vault.ts';
export { backupReminderOf, exitsView, reminderOf, scrubOf, scrubStateOf, secretView, stateOf } from './views.ts';
export { type GivenFile, type WriteHow, Writes } from './writes.ts';
