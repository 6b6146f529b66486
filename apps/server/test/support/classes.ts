import type { ClassSummary, Note } from '@flashcards/shared/api-types';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AuthHeaders } from './factories';

/** POST /classes; expects 201. */
export async function createClass(app: FastifyInstance, headers: AuthHeaders, name = 'Biology 101') {
  const response = await app.inject({ method: 'POST', url: '/classes', headers, payload: { name } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ClassSummary & { join_code: string }>();
}

/** POST /classes/join; the answer is the caller's to check. */
export function postJoin(app: FastifyInstance, headers: AuthHeaders, joinCode: string) {
  return app.inject({ method: 'POST', url: '/classes/join', headers, payload: { join_code: joinCode } });
}

/** POST /classes/join; expects 200. */
export async function joinClass(app: FastifyInstance, headers: AuthHeaders, joinCode: string) {
  const response = await postJoin(app, headers, joinCode);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ClassSummary>();
}

/** POST /classes/{id}/decks; expects 201. */
export async function assignDeck(app: FastifyInstance, headers: AuthHeaders, classId: string, deckId: string) {
  const response = await app.inject({
    method: 'POST',
    url: `/classes/${classId}/decks`,
    headers,
    payload: { deck_id: deckId },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ClassSummary>();
}

/** POST /notes; expects 201 and returns the note. */
export async function addNote(
  app: FastifyInstance,
  headers: AuthHeaders,
  deckId: string,
  type: Note['type'],
  fields: Record<string, unknown>,
): Promise<Note> {
  const response = await app.inject({
    method: 'POST',
    url: '/notes',
    headers,
    payload: { deck_id: deckId, type, fields },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ note: Note }>().note;
}
