import { randomInt } from 'node:crypto';
import type {
  ClassCardProgress,
  ClassDeck,
  ClassDetail,
  ClassProgress,
  ClassStudentProgress,
  ClassSummary,
} from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { isoTime } from '@flashcards/shared/time';
import type { Clock } from '../../adapters/clock';
import { type IdGenerator, isId } from '../../adapters/ids';
import { isUniqueViolation } from '../../db/errors';
import { AppError, errors } from '../../http/app-error';
import type { LinkedDecks } from '../study-core/linked-decks';
import type { UserLimits } from '../study-core/user-limits';
import type { ClassDeckRow, ClassesRepo, ClassForUser } from './classes.repo';

/** Letters nobody confuses when reading a code aloud or off a board (no I, L, O). */
const JOIN_CODE_LETTERS = 'ABCDEFGHJKMNPQRSTUVWXYZ';
const JOIN_CODE_LENGTH = 8;

/** A random join code: 8 unambiguous capital letters. */
export function randomJoinCode(): string {
  let code = '';
  for (let i = 0; i < JOIN_CODE_LENGTH; i += 1) code += JOIN_CODE_LETTERS[randomInt(JOIN_CODE_LETTERS.length)];
  return code;
}

export interface ClassesServiceDeps {
  classes: ClassesRepo;
  linked: LinkedDecks;
  /** MAX_DECKS_PER_USER and MAX_CARDS_PER_USER: a student's copies count towards their own caps. */
  userLimits: UserLimits;
  clock: Clock;
  newId: IdGenerator;
  newJoinCode?: () => string;
  /** CLASS_MAX_STUDENTS and MAX_CLASSES_PER_USER. */
  limits: { maxStudents: number; maxPerUser: number };
}

const DAY_MS = 86_400_000;

function toClassDeck(row: ClassDeckRow, role: ClassForUser['role']): ClassDeck {
  return {
    _id: row.deck_id,
    name: row.name,
    card_count: row.card_count,
    copy_deck_id: role === 'student' ? row.copy_deck_id : null,
    assigned_at: isoTime(row.assigned_at),
  };
}

/** Cards the class forgets most first: by share of "don't know" answers, then their number, then most reviewed. */
export function hardestFirst(a: ClassCardProgress, b: ClassCardProgress): number {
  return (
    b.fail_rate - a.fail_rate || b.failed - a.failed || b.reviews - a.reviews || a.card_id.localeCompare(b.card_id)
  );
}

/** Classes: a teacher's decks linked into every student's account, and what the class has learnt. */
export function createClassesService(deps: ClassesServiceDeps) {
  const { classes, clock } = deps;
  const newJoinCode = deps.newJoinCode ?? randomJoinCode;

  const summaries = async (userId: string, rows: ClassForUser[]): Promise<ClassSummary[]> => {
    const ids = rows.map((row) => row.id);
    const taught = rows.filter((row) => row.role === 'teacher').map((row) => row.id);
    const [decks, counts] = await Promise.all([classes.decksOf(ids, userId), classes.studentCounts(taught)]);
    return rows.map((row) => ({
      _id: row.id,
      name: row.name,
      role: row.role,
      created_at: isoTime(row.created_at),
      teacher_name: row.teacher_name.trim() || serverMessages.anonymousOwner,
      join_code: row.role === 'teacher' ? row.join_code : null,
      student_count: row.role === 'teacher' ? (counts.get(row.id) ?? 0) : null,
      decks: decks.filter((deck) => deck.class_id === row.id).map((deck) => toClassDeck(deck, row.role)),
    }));
  };

  const summary = async (userId: string, row: ClassForUser): Promise<ClassSummary> =>
    (await summaries(userId, [row]))[0] as ClassSummary;

  /** The class if the user teaches or attends it; 404 class_not_found otherwise (a stranger learns nothing). */
  const visible = async (userId: string, classId: string): Promise<ClassForUser> => {
    const row = isId(classId) ? await classes.findForUser(classId, userId) : undefined;
    if (!row) throw errors.classNotFound();
    return row;
  };

  /** The class if the user teaches it; a student gets the same 404 as a stranger. */
  const taught = async (userId: string, classId: string): Promise<ClassForUser> => {
    const row = await visible(userId, classId);
    if (row.role !== 'teacher') throw errors.classNotFound();
    return row;
  };

  const assertClassRoom = async (userId: string): Promise<void> => {
    if ((await classes.countForUser(userId)) >= deps.limits.maxPerUser) {
      throw new AppError(
        'too_many_classes',
        fillMessage(serverMessages.tooManyClasses, { max: deps.limits.maxPerUser }),
      );
    }
  };

  return {
    async create(userId: string, name: string): Promise<ClassSummary> {
      await assertClassRoom(userId);
      const now = clock.now();
      // A code taken already (one chance in billions) gets another try.
      for (let attempt = 0; ; attempt += 1) {
        const row = { id: deps.newId(), teacher_id: userId, name, join_code: newJoinCode(), created_at: now };
        try {
          await classes.insert(row);
          return summary(userId, await visible(userId, row.id));
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= 4) throw error;
        }
      }
    },

    async list(userId: string): Promise<ClassSummary[]> {
      return summaries(userId, await classes.listForUser(userId));
    },

    async get(userId: string, classId: string): Promise<ClassDetail> {
      const row = await visible(userId, classId);
      const students =
        row.role === 'teacher'
          ? (await classes.students(row.id)).map((student) => ({ ...student, joined_at: isoTime(student.joined_at) }))
          : null;
      return { ...(await summary(userId, row)), students };
    },

    async join(userId: string, code: string): Promise<ClassSummary> {
      const row = await classes.findByCode(code);
      if (!row) throw errors.classNotFound();
      if (row.teacher_id === userId) throw errors.alreadyMember({ message: 'ownClassJoin' });
      if (await classes.isMember(row.id, userId)) throw errors.alreadyMember();
      await assertClassRoom(userId);
      // The copies of the class's decks must fit the student's caps when they join (422 too_many_decks or
      // too_many_cards); the teacher's later additions reach every copy even past them (docs/api.md, Classes).
      const assigned = await classes.decksOf([row.id], userId);
      await deps.userLimits.assertRoom(userId, {
        decks: assigned.length,
        cards: assigned.reduce((sum, deck) => sum + deck.card_count, 0),
      });
      try {
        const joined = await classes.join(row.id, userId, clock.now(), deps.limits.maxStudents);
        if (joined === 'full') {
          throw new AppError('class_full', fillMessage(serverMessages.classFull, { max: deps.limits.maxStudents }));
        }
      } catch (error) {
        // The same student joining twice at once: the other request's membership stands.
        if (isUniqueViolation(error)) throw errors.alreadyMember();
        throw error;
      }
      // The copies exist before the answer, so the class's decks are in the student's deck list at once.
      await deps.linked.syncUser(userId);
      return summary(userId, await visible(userId, row.id));
    },

    async assignDeck(userId: string, classId: string, deckId: string): Promise<ClassSummary> {
      const row = await taught(userId, classId);
      const deck = isId(deckId) ? await classes.ownDeck(userId, deckId) : undefined;
      if (!deck) throw errors.deckNotFound();
      if (deck.source_deck_id !== null) throw errors.linkedDeckReadOnly();
      if (!(await classes.assignDeck(row.id, deck.id, clock.now()))) throw errors.deckAlreadyAssigned();
      return summary(userId, row);
    },

    async removeStudent(userId: string, classId: string, studentId: string): Promise<void> {
      const row = await taught(userId, classId);
      if (!isId(studentId) || !(await classes.removeMember(row.id, studentId))) throw errors.memberNotFound();
    },

    async leave(userId: string, classId: string): Promise<void> {
      const row = await visible(userId, classId);
      if (row.role !== 'student' || !(await classes.removeMember(row.id, userId))) throw errors.classNotFound();
    },

    async progress(userId: string, classId: string): Promise<ClassProgress> {
      const row = await taught(userId, classId);
      const now = clock.now();
      const [students, cards] = await Promise.all([
        classes.studentProgress(row.id, now - 7 * DAY_MS, now - 30 * DAY_MS),
        classes.cardProgress(row.id),
      ]);
      return {
        students: students.map(
          (student): ClassStudentProgress => ({
            user_id: student.user_id,
            name: student.name,
            email: student.email,
            cards_studied: student.cards_studied,
            reviews_7d: student.reviews_7d,
            retention_30d: student.reviews_30d > 0 ? student.passed_30d / student.reviews_30d : null,
            last_active: student.last_active === null ? null : isoTime(student.last_active),
          }),
        ),
        cards: cards
          .map((card) => ({ ...card, fail_rate: card.reviews > 0 ? card.failed / card.reviews : 0 }))
          .sort(hardestFirst),
      };
    },
  };
}

export type ClassesService = ReturnType<typeof createClassesService>;
