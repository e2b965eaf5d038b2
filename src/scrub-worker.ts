// A dedicated worker of the vault origin that builds scrubber tables (README, Limits): a compile
// of thousands of values takes longer than the vault may hold bios's main thread, so the frame
// hands the values here and gets the tables back, their buffers transferred. Nothing is kept.
import { type ScrubTables, type ScrubValue, compileTables, tableBuffers } from './scrubber.ts';

export type CompileJob = { id: number; values: ScrubValue[] };
export type CompileAnswer = { id: number; tables: ScrubTables } | { id: number; error: string };

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<CompileJob>) => void) | null;
  postMessage(m: CompileAnswer, transfer?: Transferable[]): void;
};
scope.onmessage = ({ data }) => {
  try {
    const tables = compileTables(data.values);
    scope.postMessage({ id: data.id, tables }, tableBuffers(tables));
  } catch (error) {
    // Never the values: only the error's name.
    scope.postMessage({ id: data.id, error: (error as Error)?.name ?? 'error' });
  }
};
