import type { FastifyInstance } from 'fastify';
import PptxGenJS from 'pptxgenjs';
import { type FormPart, multipartBody, postMultipart } from './multipart';
import type { TestDatabase } from './test-database';
import { waitFor } from './wait-for';

/** Two sentences the offline generator turns into the two `biologyCards`. */
export const biology =
  'Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water. ' +
  'Chlorophyll is the green pigment that absorbs light energy.';

export const biologyCards = [
  {
    question: 'What is photosynthesis?',
    answer: 'The process by which green plants use sunlight to make glucose from carbon dioxide and water',
    source: {
      quote:
        'Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water.',
      paragraph: biology,
    },
    verified: true,
  },
  {
    question: 'What is chlorophyll?',
    answer: 'The green pigment that absorbs light energy',
    source: { quote: 'Chlorophyll is the green pigment that absorbs light energy.', paragraph: biology },
    verified: true,
  },
];

/** POST /create with a multipart form of `parts`. */
export function postCreate(app: FastifyInstance, headers: Record<string, string>, parts: FormPart[]) {
  return postMultipart(app, '/create', headers, parts);
}

/**
 * A client that leaves: POST /create to a listening server with a multipart form of `parts`, then, once `asked`
 * says the model was asked, the request is aborted; resolves when the client has gone.
 */
export async function leaveCreate(
  baseUrl: string,
  headers: Record<string, string>,
  parts: FormPart[],
  asked: () => boolean,
  timeoutMs: number,
): Promise<void> {
  const body = multipartBody(parts);
  const controller = new AbortController();
  const leaving = fetch(`${baseUrl}/create`, {
    method: 'POST',
    headers: { ...headers, ...body.headers },
    body: new Uint8Array(body.payload),
    signal: controller.signal,
  }).catch(() => undefined);
  await waitFor(asked, timeoutMs);
  controller.abort();
  await leaving;
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
