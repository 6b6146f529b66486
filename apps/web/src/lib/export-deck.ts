import { type AnkiCard, ankiFileName, buildAnkiCsv } from './anki-export';
import { downloadTextFile } from './download';

/**
 * Builds the deck's Anki CSV (images addressed at this site) and downloads it; returns the file name. Imported lazily
 * by the share modal.
 */
export function exportDeckToAnki(deckName: string, cards: readonly AnkiCard[]): string {
  const fileName = ankiFileName(deckName);
  downloadTextFile(fileName, buildAnkiCsv(cards, window.location.origin), 'text/csv;charset=utf-8');
  return fileName;
}
