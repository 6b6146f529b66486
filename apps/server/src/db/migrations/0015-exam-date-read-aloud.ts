import type { Kysely } from 'kysely';

// Exam date and read-aloud settings per deck (issue 35): the exam day as the learner's calendar date ("YYYY-MM-DD"
// in their time zone, kept as a date rather than an instant so that a change of time zone keeps the same day), and
// each side's speech language (a BCP-47 tag or null: detected from the cards) with automatic reading as 0/1.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('decks').addColumn('exam_date', 'text').execute();
  await db.schema.alterTable('decks').addColumn('tts_question_lang', 'text').execute();
  await db.schema.alterTable('decks').addColumn('tts_answer_lang', 'text').execute();
  await db.schema
    .alterTable('decks')
    .addColumn('tts_auto', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('decks').dropColumn('tts_auto').execute();
  await db.schema.alterTable('decks').dropColumn('tts_answer_lang').execute();
  await db.schema.alterTable('decks').dropColumn('tts_question_lang').execute();
  await db.schema.alterTable('decks').dropColumn('exam_date').execute();
}
