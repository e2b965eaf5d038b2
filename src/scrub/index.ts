// The scrubber (README, The scrubber): the matcher over bytes, strings and streams, and the slices
// that keep big scrubs from holding the thread. Pure but for the slices' yields; fine in a worker.
export type { ScrubValue } from './compile.ts';
export { type ScrubTables, type Scrubber, compileScrubber, compileTables, scrubberOf, tableBuffers } from './scrubber.ts';
export { bytePieces, pushSliced, redactSliced, redactToBytes, slicer, utf8LengthSliced, yieldThread } from './slices.ts';
export type { ScrubStream } from './stream.ts';
