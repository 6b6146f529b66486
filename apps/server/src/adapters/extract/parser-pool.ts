import type { ProcessPoolOptions } from '../workers/process-pool';
import type { ParserLimits } from './extractor';

/** The parser processes' pool (workers/process-pool.ts) with the caps each parse is given. */
export interface ParserPoolOptions extends ParserLimits, ProcessPoolOptions {}

/** The queue of files waiting for a parser is full: the caller should come back later. */
export class ExtractorBusyError extends Error {
  override name = 'ExtractorBusyError';
}
