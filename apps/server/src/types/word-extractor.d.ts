declare module 'word-extractor' {
  interface WordDocument {
    getBody(): string;
    getFootnotes(): string;
    getEndnotes(): string;
    getHeaders(options?: { includeFooters?: boolean }): string;
    getTextboxes(options?: { includeHeadersAndFooters?: boolean; includeBody?: boolean }): string;
  }
  // biome-ignore lint/style/noDefaultExport: the package's own CommonJS export.
  export default class WordExtractor {
    extract(source: string | Buffer): Promise<WordDocument>;
  }
}
