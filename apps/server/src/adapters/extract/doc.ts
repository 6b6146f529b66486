import WordExtractor from 'word-extractor';
import type { Passage } from './extracted';
import { tidyText, UnreadableFileError } from './extracted';
import { checkCompoundFile } from './ole-check';

/** Word 97-2003 (.doc) through word-extractor: the body text, once the file's structure has been checked. */
export async function extractDoc(bytes: Buffer): Promise<Passage[]> {
  checkCompoundFile(bytes);
  try {
    const document = await new WordExtractor().extract(bytes);
    const text = tidyText(document.getBody());
    return text ? [{ text }] : [];
  } catch (error) {
    throw new UnreadableFileError(String(error));
  }
}
