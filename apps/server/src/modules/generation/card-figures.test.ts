import type { GeneratedCard } from '@flashcards/shared/api-types';
import { describe, expect, it } from 'vitest';
import type { Figure } from '../../adapters/extract/figures';
import { createFigureAttacher } from './card-figures';

const figure = (place: Partial<Figure>, byte: number): Figure => ({
  ...place,
  contentType: 'image/jpeg',
  width: 100,
  height: 80,
  data: new Uint8Array([byte]),
});
const card = (source: GeneratedCard['source']): GeneratedCard => ({
  question: 'Q',
  answer: 'A',
  source,
  verified: true,
});
const base64Of = (byte: number) => Buffer.from([byte]).toString('base64');

describe('the figures a generated card carries', () => {
  const figures = [
    figure({ slide: 1 }, 1),
    figure({ slide: 2 }, 2),
    figure({ slide: 2 }, 3),
    figure({ slide: 2 }, 4),
    figure({ page: 3 }, 5),
    figure({ near: 'The heart has four chambers.' }, 6),
  ];
  const attach = createFigureAttacher(figures);

  it('its slide’s or page’s figures, at most two, in document order', () => {
    expect(attach(card({ slide: 1, quote: 'x' })).figures?.map((f) => f.base64)).toEqual([base64Of(1)]);
    expect(attach(card({ slide: 2, quote: 'x' })).figures?.map((f) => f.base64)).toEqual([base64Of(2), base64Of(3)]);
    expect(attach(card({ page: 3, quote: 'x' })).figures).toEqual([
      { contentType: 'image/jpeg', width: 100, height: 80, base64: base64Of(5) },
    ]);
  });

  it('none for a place without figures, nor for a card of pasted text', () => {
    expect(attach(card({ slide: 9, quote: 'x' }))).not.toHaveProperty('figures');
    expect(attach(card({ quote: 'Mitochondria make ATP.' }))).not.toHaveProperty('figures');
  });

  it('a DOCX card: the images beside the paragraph its quote was found in', () => {
    const found = attach(card({ quote: 'four chambers', paragraph: 'The heart has  four chambers.' }));
    expect(found.figures?.map((f) => f.base64)).toEqual([base64Of(6)]);
    expect(attach(card({ quote: 'The lungs exchange gas.' }))).not.toHaveProperty('figures');
  });
});
