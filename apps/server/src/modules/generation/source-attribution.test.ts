import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../../test/support/test-clock';
import { createOfflineProvider } from '../../adapters/ai/offline/offline-provider';
import { cleanPassages } from '../../adapters/extract/clean-text';
import type { Passage } from '../../adapters/extract/extracted';
import type { Extractor } from '../../adapters/extract/extractor';
import { extractPdf } from '../../adapters/extract/pdf';
import { loadConfig } from '../../config';
import { createGenerationPipeline } from './generation-pipeline';
import { sourceOfCard } from './source-attribution';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/pdf-layout');
const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger;

describe('sourceOfCard', () => {
  const longPage: Passage = {
    page: 1,
    text:
      'In 1908 Austria-Hungary annexed Bosnia and Herzegovina, a move that angered Serbia and its ally Russia.\n\n' +
      'The Triple Alliance of 1882 bound Germany, Austria-Hungary and Italy to support one another if attacked.\n\n' +
      'On 28 June 1914 Gavrilo Princip, a Bosnian Serb student, shot Archduke Franz Ferdinand, the heir to the ' +
      'Austro-Hungarian throne, during an official visit to Sarajevo, the capital of Bosnia.\n\n' +
      'Austria-Hungary blamed Serbia for the murder and sent an ultimatum with demands so harsh that no ' +
      'independent state could accept all of them.',
  };
  const shortPage: Passage = {
    page: 2,
    text: 'Serbia and Russia in 1908: Germany declared war on Russia in August 1914.',
  };

  it('names the long page a card was written from, not the short page that shares a few of its words', () => {
    const card = {
      question: 'Which alliance bound Germany, Austria-Hungary and Italy in 1882?',
      answer: 'The Triple Alliance',
    };
    expect(sourceOfCard(card, [longPage, shortPage])).toEqual({ page: 1 });
    // A Jaccard similarity with whole pages named page 2 here: the short page shares few words but has few.
    const angered = {
      question: 'In 1908, what angered Serbia and its ally Russia?',
      answer: 'The annexation of Bosnia',
    };
    expect(sourceOfCard(angered, [longPage, shortPage])).toEqual({ page: 1 });
    expect(
      sourceOfCard({ question: 'When did Germany declare war on Russia?', answer: 'August 1914' }, [
        longPage,
        shortPage,
      ]),
    ).toEqual({
      page: 2,
    });
  });

  it('gives slides, and nothing for pasted text', () => {
    const card = { question: 'What is osmosis?', answer: 'Water crossing a membrane' };
    expect(sourceOfCard(card, [{ slide: 3, text: 'Osmosis is water crossing a membrane.' }])).toEqual({ slide: 3 });
    expect(sourceOfCard(card, [{ text: 'Osmosis is water crossing a membrane.' }])).toBeUndefined();
  });
});

describe('page numbers of generated cards', () => {
  it('each card of the Chromium-printed chapter names the page its fact is printed on', async () => {
    const bytes = readFileSync(path.join(fixtures, 'chapter.pdf'));
    const passages = cleanPassages(
      await extractPdf(bytes, {
        maxPages: 10,
        maxOcrPages: 0,
        maxStreamBytes: 50_000_000,
        maxImagePixels: 10_000_000,
        ocr: { recognize: async () => '' },
      }),
    );
    const extractor: Extractor = { extract: async () => passages };
    const pipeline = createGenerationPipeline({
      provider: createOfflineProvider(),
      extractor,
      clock: new TestClock(),
      ai: loadConfig({}).ai,
    });
    const cards = await pipeline.run({ text: '', file: { kind: 'pdf', source: bytes }, cardStyle: 'basic' }, silent);
    expect(cards.length).toBeGreaterThan(3);
    const pageText = (page: number) => (passages.find((p) => p.page === page)?.text ?? '').toLowerCase();
    for (const card of cards) {
      // The card's answer (or, for a cloze card, its blanked word) is printed on the page the card names.
      const answer = card.answer.toLowerCase().replace(/[.!?]$/, '');
      expect(card.source, JSON.stringify(card)).toBeDefined();
      expect(pageText(card.source?.page ?? 0), JSON.stringify(card)).toContain(answer);
    }
    expect(cards.filter((card) => card.source?.page === 1).length).toBeGreaterThan(cards.length / 2);
  }, 60_000);
});
