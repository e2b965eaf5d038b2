// The vault's dedicated worker, one per vault document (README, Limits: heavy work off the main
// thread): it builds scrubber tables and parses policy files, the two jobs that take longer than
// the vault may hold bios's main thread, and posts the results back (table buffers transferred).
// Nothing is kept between jobs.
import { type ParsedFile, parseUncached } from '../policy/index.ts';
import { type ScrubTables, type ScrubValue, compileTables, tableBuffers } from '../scrub/index.ts';

export type WorkerJob = { id: number; op: 'compile'; values: ScrubValue[] } | { id: number; op: 'parse'; path: string; text: string };
export type WorkerAnswer = { id: number; tables: ScrubTables } | { id: number; parsed: ParsedFile } | { id: number; error: string };

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<WorkerJob>) => void) | null;
  postMessage(m: WorkerAnswer, transfer?: Transferable[]): void;
};
scope.onmessage = ({ data }) => {
  try {
    if (data.op === 'parse') {
      scope.postMessage({ id: data.id, parsed: parseUncached(data.path, data.text) });
    } else {
      const tables = compileTables(data.values);
      scope.postMessage({ id: data.id, tables }, tableBuffers(tables));
    }
  } catch (error) {
    // Never the values or the text: only the error's name.
    scope.postMessage({ id: data.id, error: (error as Error)?.name ?? 'error' });
  }
};
