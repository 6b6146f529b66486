import { messages } from '@flashcards/shared/messages';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api-client';
import {
  acceptedFiles,
  fileProblem,
  generationCost,
  generationErrorMessage,
  mergeFinalCards,
  savedSentence,
  startsSelected,
} from './create-rules';

const file = (name: string, type: string, size = 100) => ({ name, type, size });

describe('file rules', () => {
  it('takes every listed type by extension and MIME type, or by extension when the MIME type is unknown', () => {
    for (const [name, type] of [
      ['notes.pdf', 'application/pdf'],
      ['notes.TXT', 'text/plain'],
      ['notes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['notes.doc', 'application/msword'],
      ['slides.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
      ['photo.jpg', 'image/jpeg'],
      ['photo.jpeg', 'image/jpeg'],
      ['scan.png', 'image/png'],
      ['slides.pptx', ''],
      ['notes.pdf', 'application/octet-stream'],
    ] as const) {
      expect(fileProblem(file(name, type)), name).toBeNull();
    }
    expect(acceptedFiles).toBe('.pdf,.txt,.docx,.doc,.pptx,.jpg,.jpeg,.png');
  });

  it('refuses other types, with the MIME variant for a .pptx', () => {
    expect(fileProblem(file('movie.mp4', 'video/mp4'))).toBe(messages.invalidFileType);
    expect(fileProblem(file('notes.pdf', 'image/png'))).toBe(messages.invalidFileType);
    expect(fileProblem(file('noextension', ''))).toBe(messages.invalidFileType);
    expect(fileProblem(file('slides.pptx', 'application/zip'))).toBe(messages.invalidFileTypePptx);
    expect(messages.invalidFileTypePptx).toBe('Invalid file type or unknown MIME type...');
  });

  it('takes exactly 10 MB and refuses one byte more', () => {
    expect(fileProblem(file('notes.pdf', 'application/pdf', 10_485_760))).toBeNull();
    expect(fileProblem(file('notes.pdf', 'application/pdf', 10_485_761))).toBe(
      'File is too large. Maximum file size is 10MB.',
    );
  });
});

describe('generation cost', () => {
  it('is 1 for text, 3 for a document or image, 5 for PPTX', () => {
    expect(generationCost(null)).toBe(1);
    expect(generationCost({ name: 'a.pdf' })).toBe(3);
    expect(generationCost({ name: 'a.png' })).toBe(3);
    expect(generationCost({ name: 'a.docx' })).toBe(3);
    expect(generationCost({ name: 'a.PPTX' })).toBe(5);
  });
});

describe('generation error messages', () => {
  it('maps every kind of generation failure to its text', () => {
    expect(generationErrorMessage(new ApiRequestError('timeout', null, null, null))).toBe(messages.generationTimeout);
    expect(generationErrorMessage(new ApiRequestError('http', 402, 'insufficient_quota', 'x'))).toBe(
      messages.insufficientQuota,
    );
    expect(generationErrorMessage(new ApiRequestError('http', 413, 'text_too_long', 'Too long.'))).toBe(
      'Server error: Too long.',
    );
    expect(generationErrorMessage(new ApiRequestError('http', 500, null, null))).toBe(
      'Server error: Failed to generate flashcards. Please try again.',
    );
    expect(generationErrorMessage(new ApiRequestError('network', null, null, null))).toBe(messages.noResponse);
    expect(generationErrorMessage(new Error('odd'))).toBe('Failed to generate flashcards. Please try again.');
  });
});

describe('which generated cards start selected', () => {
  const verified = { question: 'Q1', answer: 'A1', source: { quote: 'Q1 is A1.' }, verified: true };
  const invented = { question: 'Q2', answer: 'A2', source: { quote: 'Nowhere.' }, verified: false };
  const repeated = { ...verified, question: 'Q3', duplicate_of: { card_id: 'c'.repeat(24), question: 'Old Q3' } };

  it('a verified card that repeats nothing starts selected; an unverified one or a duplicate does not', () => {
    expect([verified, invented, repeated].map(startsSelected)).toEqual([true, false, false]);
  });

  it('the final list keeps choices made while streaming and leaves new unverified cards unselected', () => {
    expect(mergeFinalCards([verified, invented, repeated], [], [], [])).toEqual({
      cards: [verified, invented, repeated],
      selected: [0],
    });
    // The learner selected the unverified card while it streamed: that choice stays.
    expect(mergeFinalCards([verified, invented], [invented], [invented], [0]).selected).toEqual([0, 1]);
  });
});

describe('the saved banner', () => {
  it('counts the saved cards and, when some were, the ones skipped as already in the deck', () => {
    expect(savedSentence('Biology', 2, 0)).toBe('2 cards saved to "Biology".');
    expect(savedSentence('Biology', 1, 1)).toBe(
      '1 card saved to "Biology". 1 card was already in the deck and was skipped.',
    );
    expect(savedSentence('Biology', 0, 3)).toBe(
      '0 cards saved to "Biology". 3 cards were already in the deck and were skipped.',
    );
  });
});
