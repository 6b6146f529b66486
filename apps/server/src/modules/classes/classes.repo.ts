import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { leaveClasses } from '../study-core/class-card-stats';
import { BUCKET_MS } from '../study-core/study-day';

export interface ClassRow {
  id: string;
  teacher_id: string;
  name: string;
  join_code: string;
  created_at: number;
}

/** A class with the caller's role and the teacher's name. */
export interface ClassForUser extends ClassRow {
  role: 'teacher' | 'student';
  teacher_name: string;
}

export interface ClassDeckRow {
  class_id: string;
  deck_id: string;
  name: string;
  card_count: number;
  assigned_at: number;
  copy_deck_id: string | null;
}

export interface StudentProgressRow {
  user_id: string;
  name: string;
  email: string;
  cards_studied: number;
  reviews_7d: number;
  reviews_30d: number;
  passed_30d: number;
  last_active: number | null;
}

export interface CardProgressRow {
  card_id: string;
  question: string;
  reviews: number;
  failed: number;
}

const num = (value: unknown): number => Number(value ?? 0);

/**
 * SQL for classes. Every read of a class is scoped by the caller being its teacher or one of its members, so a
 * stranger's class is simply not there. Students' data is read only for the teacher, only from the linked copies of
 * the class's assigned decks of its current members.
 */
export function createClassesRepo(db: Kysely<Database>) {
  const withTeacher = () =>
    db
      .selectFrom('classes')
      .innerJoin('users as teacher', 'teacher.id', 'classes.teacher_id')
      .selectAll('classes')
      .select('teacher.name as teacher_name');

  return {
    async insert(row: ClassRow): Promise<void> {
      await db.insertInto('classes').values(row).execute();
    },

    /** Classes the user teaches and attends. */
    async countForUser(userId: string): Promise<number> {
      const row = await db
        .selectNoFrom((eb) => [
          eb.selectFrom('classes').select(eb.fn.countAll().as('n')).where('teacher_id', '=', userId).as('taught'),
          eb.selectFrom('class_members').select(eb.fn.countAll().as('n')).where('user_id', '=', userId).as('attended'),
        ])
        .executeTakeFirst();
      return num(row?.taught) + num(row?.attended);
    },

    findByCode(code: string): Promise<ClassRow | undefined> {
      return db.selectFrom('classes').selectAll().where('join_code', '=', code).executeTakeFirst();
    },

    /** The class if the user teaches or attends it. */
    async findForUser(classId: string, userId: string): Promise<ClassForUser | undefined> {
      const row = await withTeacher()
        .select((eb) =>
          eb
            .selectFrom('class_members')
            .select('class_members.user_id')
            .whereRef('class_members.class_id', '=', 'classes.id')
            .where('class_members.user_id', '=', userId)
            .as('member'),
        )
        .where('classes.id', '=', classId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { member, ...rest } = row;
      if (rest.teacher_id === userId) return { ...rest, role: 'teacher' };
      return member ? { ...rest, role: 'student' } : undefined;
    },

    /** Classes the user teaches, then those they attend, oldest first. */
    async listForUser(userId: string): Promise<ClassForUser[]> {
      const taught = await withTeacher()
        .where('classes.teacher_id', '=', userId)
        .orderBy('classes.created_at')
        .orderBy('classes.id')
        .execute();
      const attended = await withTeacher()
        .innerJoin('class_members', 'class_members.class_id', 'classes.id')
        .where('class_members.user_id', '=', userId)
        .orderBy('class_members.joined_at')
        .orderBy('classes.id')
        .execute();
      return [
        ...taught.map((row) => ({ ...row, role: 'teacher' as const })),
        ...attended.map((row) => ({ ...row, role: 'student' as const })),
      ];
    },

    async studentCounts(classIds: readonly string[]): Promise<Map<string, number>> {
      if (classIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('class_members')
        .select((eb) => ['class_id', eb.fn.countAll().as('n')])
        .where('class_id', 'in', classIds)
        .groupBy('class_id')
        .execute();
      return new Map(rows.map((row) => [row.class_id, num(row.n)]));
    },

    /** The assigned decks of these classes, with the user's linked copy of each (none for the teacher). */
    async decksOf(classIds: readonly string[], userId: string): Promise<ClassDeckRow[]> {
      if (classIds.length === 0) return [];
      const rows = await db
        .selectFrom('class_decks')
        .innerJoin('decks', 'decks.id', 'class_decks.deck_id')
        .leftJoin('decks as copy', (join) =>
          join
            .onRef('copy.source_deck_id', '=', 'class_decks.deck_id')
            .onRef('copy.class_id', '=', 'class_decks.class_id')
            .on('copy.user_id', '=', userId),
        )
        .select([
          'class_decks.class_id',
          'class_decks.deck_id',
          'class_decks.assigned_at',
          'decks.name',
          'decks.new_cards',
          'decks.learning_cards',
          'decks.review_cards',
          'copy.id as copy_deck_id',
        ])
        .where('class_decks.class_id', 'in', classIds)
        .orderBy('class_decks.assigned_at')
        .orderBy('class_decks.deck_id')
        .execute();
      return rows.map(({ new_cards, learning_cards, review_cards, ...row }) => ({
        ...row,
        card_count: new_cards + learning_cards + review_cards,
      }));
    },

    students(classId: string) {
      return db
        .selectFrom('class_members')
        .innerJoin('users', 'users.id', 'class_members.user_id')
        .select(['users.id as user_id', 'users.name', 'users.email', 'class_members.joined_at'])
        .where('class_members.class_id', '=', classId)
        .orderBy('users.name')
        .orderBy('users.id')
        .execute();
    },

    /**
     * Adds the student unless the class already holds `maxStudents`. The class row is locked first (a no-op update),
     * so concurrent joins on PostgreSQL count one after another; SQLite has one writer anyway.
     */
    async join(classId: string, userId: string, now: number, maxStudents: number): Promise<'joined' | 'full'> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('classes')
          .set((eb) => ({ name: eb.ref('name') }))
          .where('id', '=', classId)
          .execute();
        const row = await trx
          .selectFrom('class_members')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('class_id', '=', classId)
          .executeTakeFirst();
        if (num(row?.n) >= maxStudents) return 'full';
        await trx.insertInto('class_members').values({ class_id: classId, user_id: userId, joined_at: now }).execute();
        await trx
          .updateTable('users')
          .set((eb) => ({ class_memberships: eb('class_memberships', '+', 1) }))
          .where('id', '=', userId)
          .execute();
        return 'joined';
      });
    },

    async isMember(classId: string, userId: string): Promise<boolean> {
      const row = await db
        .selectFrom('class_members')
        .select('user_id')
        .where('class_id', '=', classId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Removes the student, and their reviews from the class's progress; their copies of the class's decks become
     * ordinary decks. False when not a member.
     */
    async removeMember(classId: string, userId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if ((await leaveClasses(trx, userId, classId)).length === 0) return false;
        await trx
          .updateTable('users')
          .set((eb) => ({ class_memberships: eb('class_memberships', '-', 1) }))
          .where('id', '=', userId)
          .where('class_memberships', '>', 0)
          .execute();
        await trx
          .updateTable('decks')
          .set({ class_id: null, source_deck_id: null, synced_version: null })
          .where('user_id', '=', userId)
          .where('class_id', '=', classId)
          .execute();
        return true;
      });
    },

    /** The teacher's own deck (not someone's linked copy of another class's deck). */
    ownDeck(userId: string, deckId: string) {
      return db
        .selectFrom('decks')
        .select(['id', 'source_deck_id'])
        .where('user_id', '=', userId)
        .where('id', '=', deckId)
        .executeTakeFirst();
    },

    /** False when the deck was assigned already. */
    async assignDeck(classId: string, deckId: string, now: number): Promise<boolean> {
      const result = await db
        .insertInto('class_decks')
        .values({ class_id: classId, deck_id: deckId, assigned_at: now })
        .onConflict((conflict) => conflict.columns(['class_id', 'deck_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },

    /**
     * Each current student's figures over their linked copies of the class's decks: studied cards from the copies'
     * counters, reviews and passes from the review_stats rollup (quarter-hour buckets, so the 7- and 30-day windows
     * start on a bucket) and the latest review from the end of each copy's review-log range.
     */
    async studentProgress(classId: string, since7d: number, since30d: number): Promise<StudentProgressRow[]> {
      const copies = db
        .selectFrom('decks as copy')
        .innerJoin('class_members as m', (join) =>
          join.onRef('m.user_id', '=', 'copy.user_id').onRef('m.class_id', '=', 'copy.class_id'),
        )
        .select(['copy.id', 'copy.user_id', 'copy.learning_cards', 'copy.review_cards'])
        .where('copy.class_id', '=', classId)
        .where('copy.source_deck_id', 'is not', null);
      const bucket7d = Math.floor(since7d / BUCKET_MS);
      const recent = db
        .selectFrom('review_stats as r')
        .innerJoin(copies.as('c'), (join) => join.onRef('c.id', '=', 'r.deck_id').onRef('c.user_id', '=', 'r.user_id'))
        .select((eb) => [
          'c.user_id',
          eb.fn.sum('r.reviews').as('reviews_30d'),
          eb.fn.sum(sql<number>`case when r.bucket >= ${bucket7d} then r.reviews else 0 end`).as('reviews_7d'),
          eb.fn.sum('r.passed').as('passed_30d'),
        ])
        .where('r.bucket', '>=', Math.floor(since30d / BUCKET_MS))
        .groupBy('c.user_id');
      const perStudent = db
        .selectFrom(copies.as('c'))
        .select((eb) => [
          'c.user_id',
          eb.fn.sum(sql<number>`c.learning_cards + c.review_cards`).as('cards_studied'),
          eb.fn
            .max(
              eb
                .selectFrom('review_logs as r')
                .select((inner) => inner.fn.max('r.reviewed_at').as('t'))
                .whereRef('r.deck_id', '=', 'c.id')
                .where('r.undone_at', 'is', null),
            )
            .as('last_active'),
        ])
        .groupBy('c.user_id');
      const rows = await db
        .selectFrom('class_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .leftJoin(perStudent.as('s'), 's.user_id', 'm.user_id')
        .leftJoin(recent.as('r'), 'r.user_id', 'm.user_id')
        .select([
          'u.id as user_id',
          'u.name',
          'u.email',
          's.cards_studied',
          's.last_active',
          'r.reviews_7d',
          'r.reviews_30d',
          'r.passed_30d',
        ])
        .where('m.class_id', '=', classId)
        .orderBy('u.name')
        .orderBy('u.id')
        .execute();
      return rows.map((row) => ({
        user_id: row.user_id,
        name: row.name,
        email: row.email,
        cards_studied: num(row.cards_studied),
        reviews_7d: num(row.reviews_7d),
        reviews_30d: num(row.reviews_30d),
        passed_30d: num(row.passed_30d),
        last_active: row.last_active === null || row.last_active === undefined ? null : Number(row.last_active),
      }));
    },

    /**
     * Each card of the class's decks (the teacher's) with the reviews and "don't know" answers its copies got from
     * current students: one row of the class's rollup per card (study-core/class-card-stats.ts).
     */
    async cardProgress(classId: string): Promise<CardProgressRow[]> {
      const rows = await db
        .selectFrom('class_decks as cd')
        .innerJoin('cards as t', 't.deck_id', 'cd.deck_id')
        .leftJoin('class_card_stats as p', (join) =>
          join.onRef('p.card_id', '=', 't.id').onRef('p.class_id', '=', 'cd.class_id'),
        )
        .select(['t.id as card_id', 't.question', 'p.reviews', 'p.failed'])
        .where('cd.class_id', '=', classId)
        .execute();
      return rows.map((row) => ({
        card_id: row.card_id,
        question: row.question,
        reviews: num(row.reviews),
        failed: num(row.failed),
      }));
    },
  };
}

export type ClassesRepo = ReturnType<typeof createClassesRepo>;
