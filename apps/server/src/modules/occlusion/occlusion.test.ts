import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OcclusionSuggestion } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { insertMedia } from '../../../test/support/media';
import { postMultipart } from '../../../test/support/multipart';
import { type Box, iou, knownLabels, occlusionFixtures } from '../../../test/support/occlusion-labels';
import { useTestApp } from '../../../test/support/test-app';

const ctx = useTestApp({
  env: { AUTH_RATE_LIMIT_PER_IP: '1000', OCCLUSION_RATE_LIMIT_PER_HOUR: '4', EXTRACT_TIMEOUT: '180s' },
});

/** Uploads an image with POST /media; returns its name. */
async function upload(headers: { authorization: string }, bytes: Buffer): Promise<string> {
  const response = await postMultipart(ctx.app, '/media', headers, [{ name: 'file', value: bytes, filename: 'd.png' }]);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ name: string }>().name;
}

const suggest = (headers: { authorization: string }, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: '/occlusion/suggest', headers, payload: payload as object });

describe('POST /occlusion/suggest', () => {
  it.each(['heart', 'cell'])(
    'finds the labels of the %s diagram, one box per label, covering where they were drawn',
    async (name) => {
      const { headers } = await signUpAndLogIn(ctx.app);
      const media = await upload(headers, readFileSync(path.join(occlusionFixtures, `${name}.png`)));
      const response = await suggest(headers, { media });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<OcclusionSuggestion>();
      const expected = knownLabels[name] as (typeof knownLabels)[string];
      expect([body.width, body.height]).toEqual([expected.width, expected.height]);
      // Every label drawn is found as one box with its whole text, and nothing else is suggested.
      expect(body.boxes.map((box) => box.text).sort()).toEqual(expected.labels.map((label) => label.text).sort());
      const overlaps = expected.labels.map((label) => {
        const box = body.boxes.find((candidate) => candidate.text === label.text) as Box;
        return iou(box, label);
      });
      for (const overlap of overlaps) expect(overlap).toBeGreaterThan(0.6);
      for (const box of body.boxes) {
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x + box.w).toBeLessThanOrEqual(1);
        expect(box.y + box.h).toBeLessThanOrEqual(1);
      }
    },
    120_000,
  );

  it('answers over a real connection: the request stream closing once its body is read cancels nothing', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const media = await upload(headers, readFileSync(path.join(occlusionFixtures, 'cell.png')));
    // Injected requests never close their stream the way a socket's do: this one goes through the network stack.
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/occlusion/suggest`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ media }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as OcclusionSuggestion;
    expect(body.boxes.map((box) => box.text).sort()).toEqual(
      (knownLabels.cell as (typeof knownLabels)[string]).labels.map((label) => label.text).sort(),
    );
  }, 120_000);

  it('another user’s image, an unknown name and a hostile name are 404 media_not_found', async () => {
    const owner = await signUpAndLogIn(ctx.app);
    const image = await insertMedia(ctx.database.db, owner.user._id);
    const { headers } = await signUpAndLogIn(ctx.app);
    for (const media of [image, `${'0'.repeat(40)}.png`, '../../etc/passwd']) {
      expectError(await suggest(headers, { media }), 404, 'media_not_found', serverMessages.mediaNotFound);
    }
  });

  it('a stored image cut short (POST /media refuses those; one stored otherwise) is 422 file_unreadable', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const png = readFileSync(path.join(occlusionFixtures, 'heart.png'));
    const media = await insertMedia(ctx.database.db, user._id, png.subarray(0, 200));
    expectError(await suggest(headers, { media }), 422, 'file_unreadable', serverMessages.fileUnreadable);
  }, 60_000);

  it('a missing, empty or non-text media is 422 with the rule', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    for (const payload of [{}, { media: '' }, { media: 7 }, { media: 'x'.repeat(201) }]) {
      expectValidationError(await suggest(headers, payload), 'media', serverMessages.occlusionMediaRequired);
    }
  });

  it('is limited per user per hour: past OCCLUSION_RATE_LIMIT_PER_HOUR it is 429 rate_limited', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const other = await signUpAndLogIn(ctx.app);
    const media = `${'0'.repeat(40)}.png`;
    for (let i = 0; i < 4; i++) expect((await suggest(headers, { media })).statusCode).toBe(404);
    const refused = await suggest(headers, { media });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    // Another user is not limited by the first one's requests.
    expect((await suggest(other.headers, { media })).statusCode).toBe(404);
  });

  it('needs a signed-in user', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/occlusion/suggest', payload: { media: 'x.png' } });
    expect(response.statusCode).toBe(401);
  });
});
