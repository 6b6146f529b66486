import type { CardStyle, GeneratedCard, GenerationProgress } from '@flashcards/shared/api-types';
import type { FastifyBaseLogger } from 'fastify';
import {
  type AiProvider,
  AiTimeoutError,
  type CardDraft,
  dropNearDuplicates,
  isNearDuplicate,
} from '../../adapters/ai/ai-provider';
import type { Clock } from '../../adapters/clock';
import { type FileKind, type FileSource, limitPassages, type Passage } from '../../adapters/extract/extracted';
import type { Extractor } from '../../adapters/extract/extractor';
import type { Figure, FigureLimits } from '../../adapters/extract/figures';
import type { Config } from '../../config';
import { errors } from '../../http/app-error';
import { createFigureAttacher, type RunnerCard } from './card-figures';
import { type Chunk, chunkPassages, mapWithConcurrency } from './chunking';
import { findQuote, maxQuoteChars, type QuoteIndex, quoteIndex } from './quote-check';
import { sourceOfCard } from './source-attribution';

/** What one generation works on once its input checks passed: the text, and the file with its detected kind. */
export interface GenerationJob {
  text: string;
  file: { kind: FileKind; source: FileSource } | null;
  /** POST /create's `card_style`. */
  cardStyle: CardStyle;
}

/** What a caller hears while a generation runs; `signal` aborting (the client left) stops the work. */
export interface GenerationEvents {
  signal?: AbortSignal;
  onProgress?: (progress: GenerationProgress) => void;
  /** Each card as soon as it is known; near-duplicates of cards already given and cards over the cap are held back. */
  onCard?: (card: RunnerCard) => void;
}

/** Runs a generation job: in this process (the pipeline below) or on a queue's worker processes. */
export interface GenerationRunner {
  run(job: GenerationJob, log: FastifyBaseLogger, events?: GenerationEvents): Promise<RunnerCard[]>;
}

/** The caller's signal aborted: the client left, nobody waits for the result. */
export class GenerationCancelledError extends Error {
  override name = 'GenerationCancelledError';
}

export interface GenerationPipelineDeps {
  provider: AiProvider;
  extractor: Extractor;
  clock: Clock;
  ai: Config['ai'];
  /** Given, the figures of an uploaded PDF, PPTX or DOCX are read within these caps and given to its cards. */
  figures?: FigureLimits;
}

/**
 * The card as the API gives it: a cloze note carries its text in `fields`, and each card its source. The quote is
 * checked against the whole material: found, it gives the page or slide and paragraph it is in and the card is
 * verified; not found (or not given), the card is unverified and its page is the best guess from its words.
 */
export function withSource(card: CardDraft, chunk: Chunk, index: QuoteIndex): GeneratedCard {
  const { question, answer, cloze } = card;
  const shown =
    cloze === undefined ? { question, answer } : { type: 'cloze' as const, fields: { text: cloze }, question, answer };
  const quote = card.quote ?? '';
  const found = quote ? findQuote(index, quote) : null;
  const place = found ? found.passage : sourceOfCard(card, chunk.passages);
  const source = {
    ...(place?.page !== undefined ? { page: place.page } : place?.slide !== undefined ? { slide: place.slide } : {}),
    quote: quote.length > maxQuoteChars ? `${quote.slice(0, maxQuoteChars)}…` : quote,
    ...(found && found.paragraph !== quote ? { paragraph: found.paragraph } : {}),
  };
  return { ...shown, source, verified: found !== null };
}

/**
 * Extraction, then per-chunk generation with bounded parallelism under one deadline; cards are handed out as each
 * chunk's model writes them, and the result is the merged list: source order, near-duplicates dropped, capped.
 */
export function createGenerationPipeline(deps: GenerationPipelineDeps): GenerationRunner {
  const { provider, extractor, clock, ai } = deps;
  const figureKinds = new Set<FileKind>(['pdf', 'pptx', 'docx']);

  async function generateFromPassages(
    passages: Passage[],
    log: FastifyBaseLogger,
    inputChars: number,
    style: CardStyle,
    events: GenerationEvents,
    figures: readonly Figure[],
  ): Promise<RunnerCard[]> {
    const withFigures = createFigureAttacher(figures);
    const started = clock.now();
    const chunks = chunkPassages(passages, ai.chunkChars);
    const total = chunks.reduce((sum, chunk) => sum + chunk.text.length, 0);
    const budgets = chunks.map((chunk) =>
      Math.min(
        Math.max(3, Math.ceil((ai.maxCardsPerGeneration * chunk.text.length) / total)),
        ai.maxCardsPerGeneration,
      ),
    );
    const expected = Math.min(
      ai.maxCardsPerGeneration,
      budgets.reduce((sum, budget) => sum + budget, 0),
    );
    const deadline = AbortSignal.timeout(ai.timeoutMs);
    // One chunk failing stops the others: nobody will read what they write.
    const failed = new AbortController();
    const signal = AbortSignal.any(
      events.signal ? [events.signal, deadline, failed.signal] : [deadline, failed.signal],
    );
    const usage = { promptTokens: 0, completionTokens: 0, known: false };
    const material = quoteIndex(passages);
    const streamed: RunnerCard[] = [];
    events.onProgress?.({ stage: 'generating', done: 0, total: expected });
    const perChunk = await mapWithConcurrency(chunks, ai.concurrency, async (chunk, index) => {
      const onCard = (draft: CardDraft) => {
        if (signal.aborted || streamed.length >= ai.maxCardsPerGeneration) return;
        if (isNearDuplicate(draft, streamed)) return;
        const card = withFigures(withSource(draft, chunk, material));
        streamed.push(card);
        events.onCard?.(card);
        events.onProgress?.({
          stage: 'generating',
          done: streamed.length,
          total: Math.max(expected, streamed.length),
        });
      };
      const result = await provider
        .generateCards(
          { text: chunk.text, maxCards: budgets[index] ?? ai.maxCardsPerGeneration, style },
          signal,
          onCard,
        )
        .catch((error: unknown) => {
          failed.abort();
          throw error;
        });
      if (result.usage) {
        usage.known = true;
        usage.promptTokens += result.usage.promptTokens;
        usage.completionTokens += result.usage.completionTokens;
      }
      return result.cards.map((card) => withFigures(withSource(card, chunk, material)));
    }).catch((error: unknown) => {
      if (events.signal?.aborted) throw new GenerationCancelledError('the client left');
      throw error;
    });
    if (events.signal?.aborted) throw new GenerationCancelledError('the client left');
    if (deadline.aborted) throw new AiTimeoutError('generation deadline passed');
    const cards = dropNearDuplicates(perChunk.flat()).slice(0, ai.maxCardsPerGeneration);
    log.info(
      {
        generation: {
          provider: provider.name,
          model: provider.model,
          inputChars,
          chunks: chunks.length,
          cardStyle: style,
          cards: cards.length,
          ...(usage.known ? { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens } : {}),
          ms: clock.now() - started,
          ...(ai.logText ? { text: passages.map((p) => p.text).join('\n\n') } : {}),
        },
      },
      'generation finished',
    );
    return cards;
  }

  return {
    async run(job, log, events = {}) {
      const cancelled = () => {
        if (events.signal?.aborted) throw new GenerationCancelledError('the client left');
      };
      cancelled();
      const passages: Passage[] = job.text ? [{ text: job.text }] : [];
      let figures: Figure[] = [];
      if (job.file) {
        const readFigures = deps.figures && figureKinds.has(job.file.kind) ? deps.figures : undefined;
        events.onProgress?.({ stage: 'extracting', done: 0, total: 1 });
        let read = { done: 0, total: 1 };
        const extracted = await extractor
          .extract(job.file.kind, job.file.source, {
            // The parser sends back no more text than the generator will read.
            maxChars: ai.maxInputChars,
            ...(readFigures
              ? {
                  figures: readFigures,
                  onFigures: (found: Figure[]) => {
                    figures = found;
                  },
                }
              : {}),
            ...(events.signal ? { signal: events.signal } : {}),
            onProgress: ({ done, total }) => {
              read = { done, total };
              events.onProgress?.({ stage: 'extracting', done, total });
            },
          })
          .catch((error: unknown) => {
            cancelled();
            throw error;
          });
        cancelled();
        // The whole file is read, whatever the parser reported last.
        if (read.done < read.total) events.onProgress?.({ stage: 'extracting', done: read.total, total: read.total });
        if (!extracted.some((passage) => passage.text.trim())) {
          throw errors.fileUnreadable({ message: 'noTextInFile' });
        }
        passages.push(...extracted);
      }
      const inputChars = passages.reduce((sum, passage) => sum + passage.text.length, 0);
      const cards = await generateFromPassages(
        limitPassages(passages, ai.maxInputChars),
        log,
        inputChars,
        job.cardStyle,
        events,
        figures,
      );
      if (cards.length === 0) throw errors.noCardsGenerated();
      return cards;
    },
  };
}
