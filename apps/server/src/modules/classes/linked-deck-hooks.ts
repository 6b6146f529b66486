import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../http/app-error';
import type { LinkedDecks } from '../study-core/linked-decks';

/** Reads after which a student must see the teacher's latest notes: each syncs the caller's linked copies first. */
const syncingRoutes = new Set([
  'GET /decks',
  'GET /decks/:id',
  'GET /decks/:id/cards',
  'GET /decks/stats',
  'GET /decks/:id/stats',
  'GET /decks/:id/export.apkg',
  'GET /decks/:id/exam-forecast',
  'GET /cards/due',
  'GET /cards/search',
  'GET /notes/:id',
  'GET /classes',
  'GET /classes/:id',
  'POST /api/quiz/generate',
]);

type Guard = (linked: LinkedDecks, userId: string, request: FastifyRequest) => Promise<boolean>;

const param = (request: FastifyRequest) => String((request.params as { id?: unknown }).id ?? '');
const bodyDeck = (request: FastifyRequest) => String((request.body as { deck_id?: unknown } | null)?.deck_id ?? '');

/** Writes a student may not make to a linked copy: each tells whether this request would. */
const guardedRoutes = new Map<string, Guard>([
  ['PUT /cards/:id', (linked, userId, request) => linked.isLinkedCard(userId, param(request))],
  ['DELETE /cards/:id', (linked, userId, request) => linked.isLinkedCard(userId, param(request))],
  ['PUT /notes/:id', (linked, userId, request) => linked.isLinkedNote(userId, param(request))],
  ['DELETE /notes/:id', (linked, userId, request) => linked.isLinkedNote(userId, param(request))],
  ['POST /notes', (linked, userId, request) => linked.isLinkedDeck(userId, bodyDeck(request))],
  ['POST /save-cards', (linked, userId, request) => linked.isLinkedDeck(userId, bodyDeck(request))],
  ['DELETE /decks/:id', (linked, userId, request) => linked.isLinkedDeck(userId, param(request))],
]);

/**
 * Class decks across every module, in one place: reads sync the caller's linked copies first (lazily, so a
 * teacher's edit writes nothing per student), and writes to a linked copy's cards or notes answer 403
 * linked_deck_read_only before the route runs. Runs after authentication and validation (preHandler).
 */
export function registerLinkedDeckHooks(app: FastifyInstance, linked: LinkedDecks): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const user = request.user;
    if (!user) {
      done();
      return;
    }
    const key = `${request.method} ${request.routeOptions.url}`;
    if (syncingRoutes.has(key)) {
      linked.syncUser(user.id).then(() => done(), done);
      return;
    }
    const guard = guardedRoutes.get(key);
    if (!guard) {
      done();
      return;
    }
    guard(linked, user.id, request).then((readOnly) => done(readOnly ? errors.linkedDeckReadOnly() : undefined), done);
  });
}
