import type { GeneratedCard } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import type { Figure } from '../../adapters/extract/figures';

/** Figures a generated card shows at most (the contract's `images` cap). */
export const maxFiguresPerCard = limits.maxCardImages;

/**
 * A figure as it travels with a generated card until the generation service stores it as the user's media:
 * JSON-safe, since the generation queue carries cards as JSON.
 */
export interface CardFigure {
  contentType: Figure['contentType'];
  width: number;
  height: number;
  base64: string;
}

/** A card as a generation runner gives it: the contract's card, with the figures of its page or slide. */
export type RunnerCard = GeneratedCard & { figures?: CardFigure[] };

const normalized = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Gives each card the figures of its page or slide (at most two, in document order); a card of a document without
 * pages (DOCX) gets the images that sit by the paragraph its quote was found in.
 */
export function createFigureAttacher(figures: readonly Figure[]): (card: GeneratedCard) => RunnerCard {
  if (figures.length === 0) return (card) => card;
  const encoded = new Map<Figure, CardFigure>();
  const encode = (figure: Figure): CardFigure => {
    let found = encoded.get(figure);
    if (!found) {
      found = {
        contentType: figure.contentType,
        width: figure.width,
        height: figure.height,
        base64: Buffer.from(figure.data).toString('base64'),
      };
      encoded.set(figure, found);
    }
    return found;
  };
  return (card) => {
    const { page, slide, paragraph, quote } = card.source;
    const around = normalized(paragraph ?? quote);
    const mine = figures.filter((figure) => {
      if (page !== undefined) return figure.page === page;
      if (slide !== undefined) return figure.slide === slide;
      return figure.near !== undefined && around !== '' && around.includes(normalized(figure.near));
    });
    if (mine.length === 0) return card;
    return { ...card, figures: mine.slice(0, maxFiguresPerCard).map(encode) };
  };
}
