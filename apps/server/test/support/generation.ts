import type { FastifyInstance } from 'fastify';
import PptxGenJS from 'pptxgenjs';
import { multipartBody } from './multipart';
import type { TestDatabase } from './test-database';

/** Two sentences the offline generator turns into the two `biologyCards`. */
export const biology =
  'Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water. ' +
  'Chlorophyll is the green pigment that absorbs light energy.';

export const biologyCards = [
  {
    question: 'What is photosynthesis?',
    answer: 'The process by which green plants use sunlight to make glucose from carbon dioxide and water',
  },
  { question: 'What is chlorophyll?', answer: 'The green pigment that absorbs light energy' },
];

/** POST /create with a multipart form of `parts`. */
export function postCreate(
  app: FastifyInstance,
  headers: Record<string, string>,
  parts: Parameters<typeof multipartBody>[0],
) {
  const body = multipartBody(parts);
  return app.inject({
    method: 'POST',
    url: '/create',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

/** The user's free generations used this month, read from the database. */
export async function freeUsed(database: Pick<TestDatabase, 'db'>, userId: string): Promise<number> {
  const row = await database.db
    .selectFrom('users')
    .select('free_used')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.free_used;
}

/** A PowerPoint file of two slides, each one definition (osmosis, diffusion). */
export async function twoSlidePptx(): Promise<Buffer> {
  const deck = new PptxGenJS();
  deck
    .addSlide()
    .addText('Osmosis is the movement of water across a semipermeable membrane.', { x: 0.5, y: 1, w: 9, h: 1 });
  deck
    .addSlide()
    .addText('Diffusion is the spreading of particles from high to low concentration.', { x: 0.5, y: 1, w: 9, h: 1 });
  return Buffer.from((await deck.write({ outputType: 'nodebuffer' })) as ArrayBuffer);
}
