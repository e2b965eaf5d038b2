// The scrubber (README, The scrubber): the matcher over bytes, strings and streams, and the slices
// that keep big scrubs from holding the thread. Pure but for the slices' yields; fine in a worker.
export {
  IDLE_MS,
  MAX_FORM_GROWTH,
  STREAM_GROWTH,
  type ScrubStream,
  type ScrubStreamOptions,
  type ScrubTables,
  type ScrubValue,
  type Scrubber,
  compileScrubber,
  compileTables,
  joinBytes,
  scrubberOf,
  tableBuffers,
} from './scrubber.ts';
export { PIECE_BYTES, SLICE_MS, addHits, bytePieces, pushSliced, redactSliced, redactToBytes, slicer, utf8LengthSliced, yieldThread } from './slices.ts';
