import type { Note, OcclusionSuggestion, UploadedMedia } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import type { OcclusionFields } from '@flashcards/shared/notes';
import { occlusionMessages } from '@flashcards/shared/occlusion-messages';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, type fakeServer, json } from '../../../test/fake-server';
import { biologyDeck } from '../../../test/fixtures';
import { renderApp, signedInServer } from '../../../test/render-app';
import { createQueryClient, Providers } from '../../app/providers';
import { createApiClient } from '../../lib/api-client';
import { localTokenStore } from '../../lib/token-store';
import { NoteEditor } from './note-editor';

// Issue 34, the web side of image occlusion: Add Card's "Image occlusion" uploads an image, shows the masks the
// server suggests (or says why there are none), and the mask editor changes them by keyboard and pointer before
// POST /notes; an occlusion note opens in the same editor and saves through PUT /notes/{id}.

const deckId = biologyDeck._id;
const at = '2026-11-20T10:00:00.000Z';
const uploaded: UploadedMedia = {
  name: 'a1b2c3.png',
  url: '/media/a1b2c3.png',
  width: 720,
  height: 420,
  content_type: 'image/png',
};
const suggestion: OcclusionSuggestion = {
  width: 720,
  height: 420,
  boxes: [
    { x: 0.1, y: 0.1, w: 0.2, h: 0.1, text: 'NUCLEUS' },
    { x: 0.5, y: 0.5, w: 0.2, h: 0.1, text: 'MEMBRANE' },
    { x: 0.6, y: 0.1, w: 0.1, h: 0.1, text: 'RIBOSOME' },
  ],
};
const deck = { ...biologyDeck, counts: { new: 0, learning: 0, due: 0 } };
const stats = {
  total_cards: 0,
  new_cards: 0,
  learning_cards: 0,
  due_cards: 0,
  cards_reviewed_today: 0,
  next_due_time: null,
};

type Routes = Parameters<typeof fakeServer>[0];

const bodyOf = (call: FakeCall | undefined) => JSON.parse(call?.body ?? 'null');
const sent = (calls: FakeCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);

function startApp(routes: Routes, at: string | { pathname: string; state: unknown } = '/review') {
  const server = signedInServer({
    'GET /decks': () => json(200, [deck]),
    'GET /decks/stats': () => json(200, stats),
    [`GET /decks/${deckId}/stats`]: () => json(200, stats),
    'POST /media': () => json(201, uploaded),
    ...routes,
  });
  renderApp(at, server.fetch);
  return server.calls;
}

/** Add Card, Image occlusion, and an image chosen: the form once the upload's answer is in. */
async function uploadInAddCard() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add Card' }, { timeout: 10_000 }));
  const dialog = screen.getByRole('dialog', { name: 'Add Card' });
  fireEvent.click(within(dialog).getByRole('radio', { name: 'Image occlusion' }));
  const input = await within(dialog).findByLabelText(occlusionMessages.imageLabel, {}, { timeout: 10_000 });
  await userEvent.upload(input as HTMLInputElement, new File(['png'], 'cell.png', { type: 'image/png' }));
  return dialog;
}

const liveRegion = (dialog: HTMLElement) => dialog.querySelector('[aria-live="polite"]') as HTMLElement;

afterEach(() => {
  vi.restoreAllMocks();
});

// The app's first render loads its lazy chunks, slow on a loaded machine: generous waits, no timed assertion.
describe('Add Card: an image occlusion note', { timeout: 30_000 }, () => {
  it('opens on a generated card’s figure sent from Create: its masks suggested, no upload, saved with that image', async () => {
    const figure = 'f1e2d3.jpg';
    const calls = startApp(
      {
        'POST /occlusion/suggest': () => json(200, suggestion),
        'POST /notes': (call) => json(201, { note: { _id: 'n1', ...bodyOf(call) }, cards: [] }),
      },
      { pathname: '/review', state: { occlusionImage: figure } },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add Card' }, { timeout: 10_000 });
    expect(
      await within(dialog).findByText(
        '3 masks suggested, one per label found. Move, resize, add or group them.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Image occlusion' })).toBeChecked();
    expect(sent(calls, 'POST', '/media')).toHaveLength(0);
    expect(sent(calls, 'POST', '/occlusion/suggest').map(bodyOf)).toEqual([{ media: figure }]);
    expect(within(dialog).queryByLabelText(occlusionMessages.imageLabel)).not.toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: occlusionMessages.saveNote }));
    await waitFor(() => expect(sent(calls, 'POST', '/notes')).toHaveLength(1));
    expect(bodyOf(sent(calls, 'POST', '/notes')[0])).toMatchObject({
      deck_id: deckId,
      type: 'occlusion',
      fields: { image: figure, mode: 'hide_one' },
    });
    expect(bodyOf(sent(calls, 'POST', '/notes')[0]).fields.masks).toHaveLength(3);
  });

  it('shows the suggested masks after a spinner, edits them by keyboard, and sends the note', async () => {
    let answer: (response: Response) => void = () => {};
    const calls = startApp({
      'POST /occlusion/suggest': () => new Promise<Response>((resolve) => (answer = resolve)),
      'POST /notes': (call) => json(201, { note: { _id: 'n1', ...bodyOf(call) }, cards: [] }),
    });
    const dialog = await uploadInAddCard();
    expect(await within(dialog).findByRole('status')).toHaveTextContent(occlusionMessages.suggesting);
    expect(bodyOf(sent(calls, 'POST', '/occlusion/suggest')[0])).toEqual({ media: uploaded.name });
    answer(json(200, suggestion));
    expect(
      await within(dialog).findByText('3 masks suggested, one per label found. Move, resize, add or group them.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('3 masks, 3 cards')).toBeInTheDocument();

    const stage = within(dialog).getByRole('group', { name: occlusionMessages.editorLabel });
    const first = within(stage).getByRole('button', { name: 'Mask 1, card 1' });
    first.focus();
    await userEvent.keyboard(' ');
    expect(first).toHaveAttribute('aria-pressed', 'true');
    await userEvent.tab();
    const second = within(stage).getByRole('button', { name: 'Mask 2, card 2' });
    expect(second).toHaveFocus();
    await userEvent.keyboard(' g');
    expect(liveRegion(dialog)).toHaveTextContent('2 masks grouped into card 1.');
    expect(within(stage).getByRole('button', { name: 'Mask 2, card 1' })).toBeInTheDocument();
    // Shift+arrow resizes the whole selection; arrow keys alone move it.
    await userEvent.keyboard('{Shift>}{ArrowDown}{/Shift}{ArrowRight}');
    expect(liveRegion(dialog)).toHaveTextContent(occlusionMessages.announceMoved);
    // Delete removes the focused mask when it is not part of the selection.
    await userEvent.tab();
    await userEvent.keyboard('{Delete}');
    expect(liveRegion(dialog)).toHaveTextContent('Masks deleted: 1.');
    expect(within(dialog).getByText('2 masks, 1 cards')).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('radio', { name: occlusionMessages.modeHideAll }));
    fireEvent.click(within(dialog).getByRole('button', { name: occlusionMessages.saveNote }));
    await waitFor(() => expect(sent(calls, 'POST', '/notes')).toHaveLength(1));
    expect(bodyOf(sent(calls, 'POST', '/notes')[0])).toEqual({
      deck_id: deckId,
      type: 'occlusion',
      fields: {
        image: uploaded.name,
        masks: [
          { x: 0.11, y: 0.1, w: 0.2, h: 0.11, group: 1 },
          { x: 0.51, y: 0.5, w: 0.2, h: 0.11, group: 1 },
        ],
        mode: 'hide_all',
      },
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Card' })).toBeNull());
  });

  it('says why on a 429, lets the learner add masks by hand, and will not save without one', async () => {
    const calls = startApp({
      'POST /occlusion/suggest': () =>
        json(429, { detail: 'Too many requests. Try again in 20 minutes.', code: 'rate_limited' }),
    });
    const dialog = await uploadInAddCard();
    expect(await within(dialog).findByText(occlusionMessages.suggestRateLimited)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: occlusionMessages.saveNote }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(messages.occlusionMasksMissing);

    fireEvent.click(within(dialog).getByRole('radio', { name: occlusionMessages.shapeEllipse }));
    fireEvent.click(within(dialog).getByRole('button', { name: occlusionMessages.addMask }));
    const added = within(dialog).getByRole('button', { name: 'Mask 1, card 1' });
    expect(added).toHaveFocus();
    expect(added.tagName).toBe('ellipse');
    expect(liveRegion(dialog)).toHaveTextContent('Mask 1 added, card 1.');
    expect(sent(calls, 'POST', '/notes')).toEqual([]);
  });

  it('says masks could not be suggested when the server fails, and when no label was found', async () => {
    let failing = true;
    startApp({
      'POST /occlusion/suggest': () =>
        failing
          ? json(500, { detail: 'Something went wrong.', code: 'internal_error' })
          : json(200, { ...suggestion, boxes: [] }),
    });
    const dialog = await uploadInAddCard();
    expect(await within(dialog).findByText(occlusionMessages.suggestFailed)).toBeInTheDocument();
    failing = false;
    const input = within(dialog).getByLabelText(occlusionMessages.imageLabel) as HTMLInputElement;
    await userEvent.upload(input, new File(['png2'], 'other.png', { type: 'image/png' }));
    expect(await within(dialog).findByText(occlusionMessages.noneSuggested)).toBeInTheDocument();
  });
});

const occlusionFields: OcclusionFields = {
  image: 'a1b2c3.png',
  masks: [
    { x: 0.1, y: 0.1, w: 0.2, h: 0.1, group: 1 },
    { x: 0.5, y: 0.5, w: 0.2, h: 0.1, group: 2, shape: 'ellipse' },
  ],
  mode: 'hide_one',
  header: 'The cell',
};
const occlusionNote: Note = {
  _id: 'n-occ',
  deck_id: deckId,
  type: 'occlusion',
  fields: occlusionFields,
  card_ids: ['c1', 'c2'],
  created_at: at,
  updated_at: at,
};

function renderNoteEditor(onDone = vi.fn()) {
  const server = signedInServer({
    'GET /notes/n-occ': () => json(200, occlusionNote),
    'PUT /notes/n-occ': (call) => json(200, { note: { ...occlusionNote, ...bodyOf(call) }, cards: [] }),
  });
  const api = createApiClient({ tokens: localTokenStore, onUnauthorized: vi.fn(), fetch: server.fetch });
  render(
    <Providers api={api} tokens={localTokenStore} queryClient={createQueryClient()} goTo={vi.fn()}>
      <NoteEditor noteId="n-occ" onDone={onDone} />
    </Providers>,
  );
  return { calls: server.calls, onDone };
}

/** A pointer event at a point of the 500 × 250 stage the tests lay the editor out as. */
const at500 = (x: number, y: number, pointerType = 'mouse') => ({
  clientX: x * 500,
  clientY: y * 250,
  pointerId: 1,
  pointerType,
  button: 0,
  bubbles: true,
});

describe('Editing an image occlusion note', { timeout: 30_000 }, () => {
  it('opens the note in the mask editor (no upload) and saves its masks with PUT, keeping its header', async () => {
    const { calls, onDone } = renderNoteEditor();
    const form = await screen.findByRole('form', { name: occlusionMessages.formLabel }, { timeout: 10_000 });
    expect(within(form).queryByLabelText(occlusionMessages.imageLabel)).toBeNull();
    const stage = within(form).getByRole('group', { name: occlusionMessages.editorLabel });
    expect(form.querySelector('.mask-editor__stage img')).toHaveAttribute('src', '/media/a1b2c3.png');
    within(stage).getByRole('button', { name: 'Mask 2, card 2' }).focus();
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    fireEvent.click(within(form).getByRole('button', { name: messages.saveNote }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [first, second] = occlusionFields.masks;
    expect(sent(calls, 'PUT', '/notes/n-occ').map(bodyOf)).toEqual([
      { fields: { ...occlusionFields, masks: [first, { ...second, y: 0.48 }] } },
    ]);
  });

  it('moves a mask by mouse, resizes it by a corner with touch, and draws a new one', async () => {
    vi.spyOn(SVGElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 500, 250));
    renderNoteEditor();
    const form = await screen.findByRole('form', { name: occlusionMessages.formLabel }, { timeout: 10_000 });
    const stage = within(form).getByRole('group', { name: occlusionMessages.editorLabel });
    const first = within(stage).getByRole('button', { name: 'Mask 1, card 1' });

    // Dragged by its middle: from (0.2, 0.15) to (0.3, 0.35).
    fireEvent.pointerDown(first, at500(0.2, 0.15));
    fireEvent.pointerMove(stage, at500(0.3, 0.35));
    fireEvent.pointerUp(stage, at500(0.3, 0.35));
    expect(first).toHaveAttribute('x', '0.2');
    expect(first).toHaveAttribute('y', '0.3');
    expect(first).toHaveAttribute('aria-pressed', 'true');

    // The selected mask shows its corners; a finger drags the bottom-right one.
    const corner = stage.querySelector('[data-corner="se"]') as SVGElement;
    fireEvent.pointerDown(corner, at500(0.4, 0.4, 'touch'));
    fireEvent.pointerMove(stage, at500(0.5, 0.45, 'touch'));
    fireEvent.pointerUp(stage, at500(0.5, 0.45, 'touch'));
    expect(first).toHaveAttribute('width', '0.3');
    expect(first).toHaveAttribute('height', '0.15');

    // A drag on the bare image draws a rectangle there, a new card.
    fireEvent.pointerDown(stage, at500(0.7, 0.7));
    fireEvent.pointerMove(stage, at500(0.9, 0.8));
    fireEvent.pointerUp(stage, at500(0.9, 0.8));
    const drawn = within(stage).getByRole('button', { name: 'Mask 3, card 3' });
    expect([drawn.getAttribute('x'), drawn.getAttribute('y'), drawn.getAttribute('width')]).toEqual([
      '0.7',
      '0.7',
      '0.2',
    ]);
  });
});
