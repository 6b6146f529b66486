import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { boundedInt } from '../../http/request-schemas';

/** A deck name: not empty once trimmed, at most maxDeckNameLength characters. */
const deckName = z
  .string({ error: messages.deckNameEmpty })
  .trim()
  .min(1, { error: messages.deckNameEmpty })
  .max(limits.maxDeckNameLength, { error: serverMessages.deckNameTooLong });

/** POST /decks: the form field `deck_name` (not empty). */
export const createDeckSchema = z.preprocess(
  (fields) => {
    const record = (fields ?? {}) as Record<string, unknown>;
    return { deck_name: record.deck_name ?? record.name };
  },
  z.object({ deck_name: deckName }),
);

const dailyLimit = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  boundedInt(0, limits.maxDailyNewCardLimit, serverMessages.dailyLimitInvalid),
);

const desiredRetention = z
  .number({ error: serverMessages.desiredRetentionInvalid })
  .min(limits.minDesiredRetention, { error: serverMessages.desiredRetentionInvalid })
  .max(limits.maxDesiredRetention, { error: serverMessages.desiredRetentionInvalid });

/** A calendar date written YYYY-MM-DD that exists (no 2027-02-30), or null to clear it. */
const examDate = z
  .string({ error: serverMessages.examDateInvalid })
  .refine(
    (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value, { zone: 'UTC' }).toISODate() === value,
    { error: serverMessages.examDateInvalid },
  )
  .nullable();

/** Longer than any real BCP-47 tag a speech engine knows; keeps hostile input out of Intl. */
const MAX_LANGUAGE_TAG_LENGTH = 35;

/**
 * A BCP-47 language tag of the shape Intl accepts, stored in its canonical spelling ("en-us" → "en-US"), or null
 * (detect the language from the cards); anything else is 422 invalid_language_tag.
 */
const languageTag = z
  .string({ error: serverMessages.ttsLanguageInvalid })
  .trim()
  .transform((value, context) => {
    const canonical = canonicalLanguageTag(value);
    if (canonical === null) {
      context.addIssue({
        code: 'custom',
        message: serverMessages.ttsLanguageInvalid,
        params: { code: 'invalid_language_tag' },
      });
      return z.NEVER;
    }
    return canonical;
  })
  .nullable();

function canonicalLanguageTag(value: string): string | null {
  if (value.length === 0 || value.length > MAX_LANGUAGE_TAG_LENGTH || !/^[A-Za-z0-9-]+$/.test(value)) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

/** Read aloud: any of each side's language and automatic reading. */
const deckTts = z.object(
  {
    question_lang: languageTag.optional(),
    answer_lang: languageTag.optional(),
    auto: z.boolean({ error: serverMessages.ttsAutoInvalid }).optional(),
  },
  { error: serverMessages.ttsInvalid },
);

/**
 * PUT /decks/{id}/settings: `daily_new_card_limit` (a whole number from 0, a numeric string accepted too),
 * `desired_retention` (0.70 to 0.97), `name` (a deck name), `exam_date` (YYYY-MM-DD or null; a past date is the
 * service's 422) and `tts` (any of its fields), or any of them together. With none, the limit is reported missing.
 */
export const deckSettingsSchema = z.preprocess(
  (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    const record = body as Record<string, unknown>;
    const known = ['daily_new_card_limit', 'desired_retention', 'name', 'exam_date', 'tts'];
    return known.some((field) => field in record) ? record : { ...record, daily_new_card_limit: undefined };
  },
  z
    .object({
      daily_new_card_limit: dailyLimit.optional(),
      desired_retention: desiredRetention.optional(),
      name: deckName.optional(),
      exam_date: examDate.optional(),
      tts: deckTts.optional(),
    })
    .superRefine((value, context) => {
      if (
        value.daily_new_card_limit === undefined &&
        value.desired_retention === undefined &&
        value.name === undefined &&
        value.exam_date === undefined &&
        value.tts === undefined
      ) {
        context.addIssue({ code: 'custom', path: ['daily_new_card_limit'], message: serverMessages.dailyLimitInvalid });
      }
    }),
);
