// Exec (README, Exec): whether the kernel's exec may have the values its child's environment
// names, the rates of `[limits]`, and the audit of each reveal. Pure: the store keeps the rates.
export { type RevealDraft, revealEntries } from './entries.ts';
export { type Verdict, judgeExec } from './judge.ts';
export { type RateLog, emptyLog, logged, rateRefusal } from './rates.ts';
