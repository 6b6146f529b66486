import type { ParserLimits } from '../../src/adapters/extract/extractor';

/** The parsers' limits the extraction tests start from (OCR on at most two pages). */
export const testParserLimits: ParserLimits = {
  maxPdfPages: 50,
  maxOcrPages: 2,
  maxUnzippedBytes: 50 * 1024 * 1024,
  maxXmlPartBytes: 24 * 1024 * 1024,
  maxPdfStreamBytes: 64 * 1024 * 1024,
  maxImagePixels: 40_000_000,
};
