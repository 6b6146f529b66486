import type * as Api from '@flashcards/shared/api-types';
import { type ErrorCode, errorCodes } from '@flashcards/shared/errors';
import { cardTypes, noteTypes } from '@flashcards/shared/notes';
import type { Plan } from '@flashcards/shared/plans';
import { z } from 'zod';

/**
 * Zod schemas of the API's response objects, for the OpenAPI document only (responses are built by presenters,
 * not parsed). Each is checked against its TypeScript type in packages/shared/src/api-types.ts, so the two cannot
 * drift apart: a field added to one and not the other fails the typecheck.
 */

const isoTime = z.iso.datetime().meta({ example: '2026-11-22T10:00:00.000Z' });
export const idSchema = z
  .string()
  .regex(/^[0-9a-f]{24}$/)
  .meta({ id: 'Id', description: '24 lowercase hex characters, time-ordered', example: '6740a8b2c3d4e5f607182930' });

/** Any code of packages/shared/src/errors.ts. */
export const errorCodeSchema = z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]);

export const apiErrorSchema = z
  .object({
    detail: z.string().meta({ description: 'A message a person can read' }),
    code: errorCodeSchema,
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'ApiError' }) satisfies z.ZodType<Api.ApiError>;

export const userSchema = z
  .object({
    _id: idSchema,
    email: z.string(),
    name: z.string(),
    created_at: isoTime,
    time_zone: z.string().meta({ description: 'An IANA time zone; the study day runs from 04:00 to 04:00 in it' }),
  })
  .meta({ id: 'User' }) satisfies z.ZodType<Api.User>;

export const tokenSchema = z
  .object({ access_token: z.string(), token_type: z.literal('bearer') })
  .meta({ id: 'TokenResponse' }) satisfies z.ZodType<Api.TokenResponse>;

/** Where an AI card came from (docs/api.md, "Sources and duplicates"). */
export const cardSourceSchema = z
  .object({
    document: z.string().optional().meta({ description: "The uploaded file's name" }),
    page: z.int().optional(),
    slide: z.int().optional(),
    quote: z.string().meta({ description: 'The passage of the material the card was made from' }),
    paragraph: z
      .string()
      .optional()
      .meta({ description: 'The paragraph holding the quote: what "regenerate from this passage" sends' }),
  })
  .meta({ id: 'CardSource' }) satisfies z.ZodType<Api.CardSource>;

export const cardSchema = z
  .object({
    _id: idSchema,
    deck_id: idSchema,
    question: z.string(),
    answer: z.string(),
    status: z.enum(['new', 'learning', 'relearning', 'due']),
    due_date: isoTime,
    created_at: isoTime,
    reps: z.int(),
    lapses: z.int(),
    note_id: z.string().meta({ description: 'The note the card belongs to' }),
    card_type: z.enum(cardTypes).meta({ description: 'Which card of its note: basic, reverse, cloze or occlusion' }),
    ord: z.int().meta({ description: 'The card within its note: 0 and 1 for basic and reverse, cloze number − 1' }),
    occlusion: z
      .object({
        image_url: z.string(),
        mode: z.enum(['hide_one', 'hide_all']),
        masks: z.array(
          z.object({
            x: z.number(),
            y: z.number(),
            w: z.number(),
            h: z.number(),
            target: z.boolean(),
            shape: z.enum(['rect', 'ellipse']).optional(),
          }),
        ),
      })
      .optional()
      .meta({
        description:
          "An occlusion card's image and masks (fractions 0–1): the question covers the target masks (every mask " +
          'in hide_all), the answer uncovers the target',
      }),
    images: z
      .array(z.string())
      .optional()
      .meta({ description: 'The images (`/media/{name}`, at most 2), answer side; on lists, the queue and saves' }),
    source: cardSourceSchema.nullable().meta({ description: 'Where an AI card came from; null for others' }),
  })
  .meta({ id: 'Card' }) satisfies z.ZodType<Api.Card>;

const basicFieldsSchema = z.object({ front: z.string(), back: z.string() }).meta({ id: 'BasicFields' });
const clozeFieldsSchema = z
  .object({
    text: z.string().meta({ description: 'Holds `{{c1::answer}}` or `{{c1::answer::hint}}`, numbers 1 to 500' }),
    extra: z.string().optional(),
  })
  .meta({ id: 'ClozeFields' });
const occlusionFieldsSchema = z
  .object({
    image: z.string(),
    masks: z.array(
      z.object({
        x: z.number(),
        y: z.number(),
        w: z.number(),
        h: z.number(),
        group: z.int(),
        shape: z.enum(['rect', 'ellipse']).optional(),
      }),
    ),
    mode: z.enum(['hide_one', 'hide_all']),
    header: z.string().optional(),
    back_extra: z.string().optional(),
  })
  .meta({ id: 'OcclusionFields' });

/** A note's fields, by its type (packages/shared/src/notes.ts). */
export const noteFieldsSchema = z.union([basicFieldsSchema, clozeFieldsSchema, occlusionFieldsSchema]);

export const noteSchema = z
  .object({
    _id: idSchema,
    deck_id: idSchema,
    type: z.enum(noteTypes),
    fields: noteFieldsSchema,
    card_ids: z.array(idSchema).meta({ description: "The note's cards, in ord order" }),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: 'Note' }) satisfies z.ZodType<Api.Note>;

export const noteWithCardsSchema = z
  .object({ note: noteSchema, cards: z.array(cardSchema) })
  .meta({ id: 'NoteWithCards' }) satisfies z.ZodType<Api.NoteWithCards>;

export const dueCardSchema = cardSchema
  .extend({
    next_due: z
      .object({ pass: isoTime, fail: isoTime })
      .meta({ description: 'When the card would next be due after a pass and after a fail' }),
    last_review: isoTime
      .nullable()
      .meta({ description: "When the card was last answered, null for a new card (an offline answer's base)" }),
    memory: z
      .object({ stability: z.number(), difficulty: z.number(), scheduled_days: z.number(), learning_steps: z.number() })
      .meta({ description: 'The FSRS memory the review page schedules from with no network' }),
  })
  .meta({ id: 'DueCard' }) satisfies z.ZodType<Api.DueCard>;

const examDate = z
  .string()
  .nullable()
  .meta({ description: "The exam day, YYYY-MM-DD in the user's time zone; no studied card is scheduled past it" });

export const deckTtsSchema = z
  .object({
    question_lang: z.string().nullable().meta({ description: 'BCP-47 tag of the question side; null: detected' }),
    answer_lang: z.string().nullable().meta({ description: 'BCP-47 tag of the answer side; null: detected' }),
    auto: z.boolean().meta({ description: 'Read each side aloud when it is shown' }),
  })
  .meta({ id: 'DeckTts' }) satisfies z.ZodType<Api.DeckTts>;

/** GET /decks/{id}/exam-forecast. */
export const examForecastSchema = z
  .object({
    exam_date: z.string().meta({ description: 'YYYY-MM-DD' }),
    days_left: z.int().meta({ description: "Days from today (user's zone) to the exam day, 0 on the day" }),
    predicted_recall: z
      .number()
      .meta({ description: 'Mean FSRS retrievability at 04:00 of the exam day over all cards, unstudied ones 0' }),
    cards_total: z.int(),
    cards_unstudied: z.int(),
    cards_at_risk: z
      .int()
      .meta({ description: "Studied cards whose retrievability then is below the deck's desired retention" }),
    new_per_day: z.int().meta({ description: 'New cards a day to introduce every unstudied card before the exam day' }),
  })
  .meta({ id: 'ExamForecast' }) satisfies z.ZodType<Api.ExamForecast>;

export const deckSchema = z
  .object({
    _id: idSchema,
    name: z.string(),
    daily_new_card_limit: z.int(),
    desired_retention: z.number().meta({ description: 'From 0.70 to 0.97' }),
    card_count: z.int(),
    created_at: isoTime,
    exam_date: examDate,
    tts: deckTtsSchema,
    class_id: idSchema.nullable().meta({ description: 'The class a linked copy came from' }),
    linked: z
      .boolean()
      .meta({ description: "A class deck's copy kept in step with the teacher's deck (read-only cards)" }),
  })
  .meta({ id: 'Deck' }) satisfies z.ZodType<Api.Deck>;

/** PUT /decks/{id}/settings: the deck's settings afterwards. */
export const deckSettingsResponseSchema = deckSchema
  .pick({ daily_new_card_limit: true, desired_retention: true, exam_date: true, tts: true })
  .meta({ id: 'DeckSettings' }) satisfies z.ZodType<Api.DeckSettings>;

export const deckSummarySchema = deckSchema
  .extend({
    counts: z
      .object({
        new: z.int().meta({ description: "New cards within what is left of today's daily new-card limit" }),
        learning: z.int().meta({ description: 'Learning and relearning cards due now' }),
        due: z.int().meta({ description: 'Long-term cards due now' }),
      })
      .meta({ description: 'What a session of this deck would show now' }),
  })
  .meta({ id: 'DeckSummary' }) satisfies z.ZodType<Api.DeckSummary>;

export const deckWithCardsSchema = deckSchema
  .extend({
    flashcards: z.array(cardSchema).meta({ description: 'The first cards in creation order, at most 2000' }),
    flashcards_truncated: z.boolean().meta({ description: 'More cards than `flashcards` holds: page them' }),
  })
  .meta({ id: 'DeckWithCards' }) satisfies z.ZodType<Api.DeckWithCards>;

export const deckStatsSchema = z
  .object({
    total_cards: z.int(),
    new_cards: z.int(),
    learning_cards: z.int(),
    due_cards: z.int(),
    cards_reviewed_today: z.int(),
    next_due_time: isoTime.nullable(),
  })
  .meta({ id: 'DeckStats' }) satisfies z.ZodType<Api.DeckStats>;

const questionAndAnswer = z.object({ question: z.string(), answer: z.string() });

const generatedBasicCard = questionAndAnswer.extend({
  source: cardSourceSchema,
  verified: z.boolean().meta({ description: 'The quote was found in the material (within 10 % edits)' }),
  duplicate_of: z
    .object({ card_id: idSchema, question: z.string() })
    .optional()
    .meta({ description: 'The card of the deck sent as deck_id that states the same fact' }),
  images: z
    .array(z.string())
    .max(2)
    .optional()
    .meta({ description: "The figures of the card's page or slide (`/media/{name}`, at most 2), the user's media" }),
});

/** A generated card: a basic card, or a cloze note (`card_style` cloze or mixed) with its first card rendered. */
export const generatedCardSchema = z
  .union([
    generatedBasicCard,
    generatedBasicCard.extend({
      type: z.literal('cloze'),
      fields: z.object({ text: z.string().meta({ description: 'The note text with its {{cN::…}} deletions' }) }),
    }),
  ])
  .meta({ id: 'GeneratedCard' }) satisfies z.ZodType<Api.GeneratedCard>;

export const generateResponseSchema = z.object({
  cards: z.array(generatedCardSchema),
  cost: z.int(),
  remaining: z.int(),
}) satisfies z.ZodType<Api.GenerateResponse>;

export const quizResponseSchema = z.object({
  mode: z.literal('flip'),
  questions: z.array(questionAndAnswer),
  cards: z.array(questionAndAnswer).meta({ description: 'The same as questions, for clients of before the modes' }),
}) satisfies z.ZodType<Api.QuizResponse>;

export const studyQuizSchema = z
  .discriminatedUnion('mode', [
    quizResponseSchema,
    z.object({
      mode: z.literal('multiple_choice'),
      questions: z.array(
        z.object({
          card_id: idSchema,
          question: z.string(),
          options: z.array(z.string()).length(4),
          answer_index: z.int().min(0).max(3),
        }),
      ),
    }),
    z.object({
      mode: z.literal('true_false'),
      questions: z.array(z.object({ card_id: idSchema, statement: z.string(), is_true: z.boolean() })),
    }),
    z.object({
      mode: z.literal('matching'),
      questions: z.array(
        z.object({ pairs: z.array(z.object({ card_id: idSchema, left: z.string(), right: z.string() })).max(6) }),
      ),
    }),
    z.object({
      mode: z.literal('written'),
      questions: z.array(z.object({ card_id: idSchema, question: z.string() })),
    }),
  ])
  .meta({ id: 'Quiz' }) satisfies z.ZodType<Api.StudyQuiz>;

export const quizResultsSchema = z
  .object({ score: z.int(), total: z.int(), missed_card_ids: z.array(idSchema) })
  .meta({ id: 'QuizResults' }) satisfies z.ZodType<Api.QuizResults>;

export const answerCheckSchema = z
  .object({
    verdict: z.enum(['correct', 'close', 'wrong']),
    suggested_result: z.enum(['pass', 'fail']),
    expected: z.string(),
    typed: z.string(),
    diff: z.array(z.object({ op: z.enum(['equal', 'insert', 'delete']), text: z.string() })).meta({
      description:
        'From the expected answer to the typed one: delete is expected and not typed, insert typed and not expected',
    }),
    explanation: z.string().optional().meta({ description: "The model's one line on a close answer" }),
  })
  .meta({ id: 'AnswerCheck' }) satisfies z.ZodType<Api.AnswerCheck>;

export const sharedDeckInfoSchema = z
  .object({
    deck_name: z.string(),
    owner_name: z.string(),
    card_count: z.int(),
    shared_at: isoTime,
    expires_at: isoTime,
    preview: z
      .array(questionAndAnswer)
      .meta({ description: "The deck's first cards (at most 20, creation order), markdown with math" }),
  })
  .meta({ id: 'SharedDeckInfo' }) satisfies z.ZodType<Api.SharedDeckInfo>;

export const subscriptionStatusSchema = z
  .object({
    has_access: z.boolean(),
    plan_type: z.string().nullable(),
    premium_quota: z.int(),
    premium_requests_used: z.int(),
    purchased_generations: z.int(),
    subscription_end_date: isoTime.nullable(),
    cancel_at_period_end: z.boolean(),
    free_quota: z.int(),
    free_used: z.int(),
    remaining: z.int(),
  })
  .meta({ id: 'SubscriptionStatus' }) satisfies z.ZodType<Api.SubscriptionStatus>;

export const planSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    price: z.number(),
    planType: z.enum(['generations', 'generations_100', 'monthly']),
    features: z.array(z.string()),
  })
  .meta({ id: 'Plan' }) satisfies z.ZodType<Plan>;

export const paymentSchema = z
  .object({
    _id: idSchema,
    plan_type: z.string(),
    kind: z.enum(['checkout', 'renewal']),
    amount: z.number(),
    currency: z.string(),
    status: z.string(),
    generations_granted: z.int(),
    created_at: isoTime,
  })
  .meta({ id: 'Payment' }) satisfies z.ZodType<Api.PaymentView>;

export const clientConfigSchema = z
  .object({
    google_client_id: z.string().nullable(),
    ai_provider: z.string(),
    payment_mode: z.enum(['test', 'live']),
  })
  .meta({ id: 'ClientConfig' }) satisfies z.ZodType<Api.ClientConfig>;

/** A response without a body (204, a redirect), with what it means. */
export const noContent = (description: string) => z.void().meta({ description });

/** A response that is not JSON (an HTML page, a file): any body the handler sends, described for the document. */
export const nonJson = (contentMediaType: string, description: string, format?: 'binary') =>
  z.any().meta({ type: 'string', description, contentMediaType, ...(format ? { format } : {}) });

export const occlusionSuggestionSchema = z
  .object({
    width: z.int().meta({ description: "The image's width in pixels" }),
    height: z.int().meta({ description: "The image's height in pixels" }),
    boxes: z.array(
      z.object({
        x: z.number(),
        y: z.number(),
        w: z.number(),
        h: z.number(),
        text: z.string().meta({ description: 'The words of the label, as read' }),
      }),
    ),
  })
  .meta({ id: 'OcclusionSuggestion' }) satisfies z.ZodType<Api.OcclusionSuggestion>;

export const classDeckSchema = z
  .object({
    _id: idSchema.meta({ description: "The teacher's deck" }),
    name: z.string(),
    card_count: z.int(),
    copy_deck_id: idSchema.nullable().meta({ description: "A student's linked copy; null for the teacher" }),
    assigned_at: isoTime,
  })
  .meta({ id: 'ClassDeck' }) satisfies z.ZodType<Api.ClassDeck>;

export const classSummarySchema = z
  .object({
    _id: idSchema,
    name: z.string(),
    role: z.enum(['teacher', 'student']),
    created_at: isoTime,
    teacher_name: z.string(),
    join_code: z.string().nullable().meta({ description: 'The teacher sees it; null for a student' }),
    student_count: z.int().nullable().meta({ description: 'The teacher sees it; null for a student' }),
    decks: z.array(classDeckSchema),
  })
  .meta({ id: 'Class' }) satisfies z.ZodType<Api.ClassSummary>;

export const classDetailSchema = classSummarySchema
  .extend({
    students: z
      .array(z.object({ user_id: idSchema, name: z.string(), email: z.string(), joined_at: isoTime }))
      .nullable()
      .meta({ description: "The teacher sees the students; null for a student (never another student's data)" }),
  })
  .meta({ id: 'ClassDetail' }) satisfies z.ZodType<Api.ClassDetail>;

export const classProgressSchema = z
  .object({
    students: z.array(
      z.object({
        user_id: idSchema,
        name: z.string(),
        email: z.string(),
        cards_studied: z.int(),
        reviews_7d: z.int(),
        retention_30d: z.number().nullable().meta({ description: 'Share of "know" answers in 30 days, 0 to 1' }),
        last_active: isoTime.nullable(),
      }),
    ),
    cards: z.array(
      z.object({
        card_id: idSchema.meta({ description: "The teacher's card" }),
        question: z.string(),
        reviews: z.int(),
        failed: z.int().meta({ description: '"Don\'t know" answers by the class' }),
        fail_rate: z.number().meta({ description: 'failed / reviews, 0 to 1' }),
      }),
    ),
  })
  .meta({ id: 'ClassProgress' }) satisfies z.ZodType<Api.ClassProgress>;
