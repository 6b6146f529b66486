import { occlusionMessages } from '@flashcards/shared/occlusion-messages';
import { describe, expect, it } from 'vitest';
import {
  boxBetween,
  cardCount,
  initialMaskState,
  type MaskAction,
  type MaskEditorState,
  maskReducer,
  masksOfBoxes,
  moveBox,
  noteMasks,
  resizeBox,
} from './mask-editing';

const three = () =>
  initialMaskState([
    { x: 0.1, y: 0.1, w: 0.2, h: 0.1, group: 1 },
    { x: 0.5, y: 0.1, w: 0.2, h: 0.1, group: 2 },
    { x: 0.1, y: 0.6, w: 0.2, h: 0.1, group: 3, shape: 'ellipse' },
  ]);

const run = (state: MaskEditorState, ...actions: MaskAction[]) => actions.reduce(maskReducer, state);
const groups = (state: MaskEditorState) => state.masks.map((mask) => mask.group);

describe('mask geometry', () => {
  it('moves a box and keeps it whole inside the image', () => {
    expect(moveBox({ x: 0.1, y: 0.2, w: 0.2, h: 0.1 }, 0.05, -0.1)).toEqual({ x: 0.15, y: 0.1, w: 0.2, h: 0.1 });
    expect(moveBox({ x: 0.7, y: 0.85, w: 0.2, h: 0.1 }, 0.5, 0.5)).toEqual({ x: 0.8, y: 0.9, w: 0.2, h: 0.1 });
    expect(moveBox({ x: 0.1, y: 0.1, w: 0.2, h: 0.1 }, -1, -1)).toEqual({ x: 0, y: 0, w: 0.2, h: 0.1 });
  });

  it('resizes from any corner, the opposite corner staying put', () => {
    const box = { x: 0.2, y: 0.2, w: 0.2, h: 0.2 };
    expect(resizeBox(box, 'se', 0.1, 0.05)).toEqual({ x: 0.2, y: 0.2, w: 0.3, h: 0.25 });
    expect(resizeBox(box, 'nw', -0.1, -0.1)).toEqual({ x: 0.1, y: 0.1, w: 0.3, h: 0.3 });
    expect(resizeBox(box, 'ne', 0.1, 0.1)).toEqual({ x: 0.2, y: 0.3, w: 0.3, h: 0.1 });
    expect(resizeBox(box, 'sw', 0.1, -0.1)).toEqual({ x: 0.3, y: 0.2, w: 0.1, h: 0.1 });
  });

  it('never shrinks a box to nothing nor past its opposite corner, nor out of the image', () => {
    expect(resizeBox({ x: 0.2, y: 0.2, w: 0.2, h: 0.2 }, 'se', -1, -1)).toEqual({ x: 0.2, y: 0.2, w: 0.01, h: 0.01 });
    expect(resizeBox({ x: 0.2, y: 0.2, w: 0.2, h: 0.2 }, 'se', 2, 2)).toEqual({ x: 0.2, y: 0.2, w: 0.8, h: 0.8 });
    expect(resizeBox({ x: 0.2, y: 0.2, w: 0.2, h: 0.2 }, 'nw', -2, -2)).toEqual({ x: 0, y: 0, w: 0.4, h: 0.4 });
  });

  it('spans a drag in any direction, clipped to the image', () => {
    expect(boxBetween({ x: 0.6, y: 0.5 }, { x: 0.2, y: 0.3 })).toEqual({ x: 0.2, y: 0.3, w: 0.4, h: 0.2 });
    expect(boxBetween({ x: 0.9, y: 0.9 }, { x: 1.4, y: 1.2 })).toEqual({ x: 0.9, y: 0.9, w: 0.1, h: 0.1 });
  });

  it('turns suggested boxes into masks of one card each, and stores only what a note holds', () => {
    const masks = masksOfBoxes([
      { x: 0.1, y: 0.1, w: 0.2, h: 0.05 },
      { x: 0.5, y: 0.5, w: 0.1, h: 0.1 },
    ]);
    expect(masks.map((mask) => mask.group)).toEqual([1, 2]);
    expect(noteMasks(three())).toEqual([
      { x: 0.1, y: 0.1, w: 0.2, h: 0.1, group: 1 },
      { x: 0.5, y: 0.1, w: 0.2, h: 0.1, group: 2 },
      { x: 0.1, y: 0.6, w: 0.2, h: 0.1, group: 3, shape: 'ellipse' },
    ]);
  });
});

describe('maskReducer', () => {
  it('adds a mask as a new card, selected, and says so', () => {
    const state = run(three(), { type: 'add', box: { x: 0.4, y: 0.4, w: 0.2, h: 0.1 }, shape: 'ellipse' });
    expect(state.masks).toHaveLength(4);
    expect(state.masks[3]).toMatchObject({ id: 4, group: 4, shape: 'ellipse' });
    expect(state.selected).toEqual([4]);
    expect(state.announcement).toBe('Mask 4 added, card 4.');
  });

  it('selects one mask, or toggles one into and out of the selection', () => {
    let state = run(three(), { type: 'select', id: 1, toggle: false }, { type: 'select', id: 3, toggle: true });
    expect(state.selected).toEqual([1, 3]);
    expect(state.announcement).toBe('Masks selected: 2.');
    state = run(state, { type: 'select', id: 1, toggle: true });
    expect(state.selected).toEqual([3]);
    state = run(state, { type: 'select', id: 2, toggle: false });
    expect(state.selected).toEqual([2]);
    expect(run(state, { type: 'clear-selection' }).selected).toEqual([]);
  });

  it('moves and resizes the masks named by arrow keys, one step each', () => {
    const state = run(
      three(),
      { type: 'nudge', ids: [1, 2], dx: 0.01, dy: 0 },
      { type: 'grow', ids: [3], dw: 0, dh: 0.01 },
    );
    expect(state.masks.map(({ x, y, w, h }) => ({ x, y, w, h }))).toEqual([
      { x: 0.11, y: 0.1, w: 0.2, h: 0.1 },
      { x: 0.51, y: 0.1, w: 0.2, h: 0.1 },
      { x: 0.1, y: 0.6, w: 0.2, h: 0.11 },
    ]);
    expect(state.announcement).toBe(occlusionMessages.announceResized);
  });

  it('places dragged masks at their boxes, clipped to the image', () => {
    const state = run(three(), { type: 'place', boxes: [{ id: 2, x: 0.95, y: 0.2, w: 0.2, h: 0.1 }], resized: false });
    expect(state.masks[1]).toMatchObject({ x: 0.8, y: 0.2, w: 0.2, h: 0.1, group: 2 });
    expect(state.announcement).toBe(occlusionMessages.announceMoved);
  });

  it('deletes the masks named, dropping them from the selection', () => {
    const state = run(three(), { type: 'select', id: 2, toggle: false }, { type: 'delete', ids: [2] });
    expect(state.masks.map((mask) => mask.id)).toEqual([1, 3]);
    expect(state.selected).toEqual([]);
    expect(state.announcement).toBe('Masks deleted: 1.');
  });

  it('groups masks into the lowest of their cards, and ungroups them back to one card each', () => {
    const grouped = run(three(), { type: 'group', ids: [3, 2] });
    expect(groups(grouped)).toEqual([1, 2, 2]);
    expect(cardCount(grouped.masks)).toBe(2);
    expect(grouped.announcement).toBe('2 masks grouped into card 2.');
    // The first mask of a group keeps its card (and its history); the other gets a new card.
    const ungrouped = run(grouped, { type: 'ungroup', ids: [2, 3] });
    expect(groups(ungrouped)).toEqual([1, 2, 3]);
    expect(ungrouped.announcement).toBe('2 masks ungrouped: one card each.');
  });

  it('takes one mask out of a group of three, the other two staying together', () => {
    const grouped = run(three(), { type: 'group', ids: [1, 2, 3] });
    expect(groups(grouped)).toEqual([1, 1, 1]);
    expect(groups(run(grouped, { type: 'ungroup', ids: [1] }))).toEqual([2, 1, 1]);
  });

  it('leaves the state alone when grouping fewer than two masks or deleting none', () => {
    const state = three();
    expect(run(state, { type: 'group', ids: [1] })).toBe(state);
    expect(run(state, { type: 'delete', ids: [] })).toBe(state);
    expect(run(state, { type: 'ungroup', ids: [] })).toBe(state);
  });

  it('replaces every mask (the suggestion arriving), with nothing selected', () => {
    const state = run(three(), { type: 'select', id: 1, toggle: false }, { type: 'replace', masks: [] });
    expect(state.masks).toEqual([]);
    expect(state.selected).toEqual([]);
  });
});
