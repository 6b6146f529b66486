import { fillMessage } from '@flashcards/shared/messages';
import { noteLimits, type OcclusionMask, type OcclusionShape } from '@flashcards/shared/notes';
import { occlusionMessages } from '@flashcards/shared/occlusion-messages';

/**
 * The mask editor's rules, pure: masks in fractions 0–1 of the image (so they stay on their labels at any width),
 * the selection, and what a screen reader is told after each change. The editor's pointer and keyboard handlers
 * only turn events into these actions.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A mask being edited: the note's mask with an id that stays while it moves (React keys, selection). */
export interface EditorMask extends OcclusionMask {
  id: number;
}

export interface MaskEditorState {
  masks: EditorMask[];
  /** Ids of the selected masks, in the order they were selected. */
  selected: number[];
  nextId: number;
  /** The last change, in words, for the live region. */
  announcement: string;
}

export type Corner = 'nw' | 'ne' | 'sw' | 'se';
export const corners: readonly Corner[] = ['nw', 'ne', 'sw', 'se'];

export type MaskAction =
  | { type: 'replace'; masks: readonly OcclusionMask[] }
  | { type: 'add'; box: Box; shape: OcclusionShape }
  | { type: 'select'; id: number; toggle: boolean }
  | { type: 'clear-selection' }
  /** Puts masks at the given boxes (a pointer drag: each box computed from where the mask was when it began). */
  | { type: 'place'; boxes: readonly (Box & { id: number })[]; resized: boolean }
  | { type: 'nudge'; ids: readonly number[]; dx: number; dy: number }
  | { type: 'grow'; ids: readonly number[]; dw: number; dh: number }
  | { type: 'delete'; ids: readonly number[] }
  | { type: 'group'; ids: readonly number[] }
  | { type: 'ungroup'; ids: readonly number[] };

/** The smallest side of a mask, a fraction of the image's side. */
export const minMaskSide = 0.01;
/** How far an arrow key moves or resizes a mask. */
export const keyStep = 0.01;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
/** Fractions are kept to 6 decimals: enough for any image, and no float noise in the stored note. */
const round = (value: number) => Math.round(value * 1e6) / 1e6;

function tidy(box: Box): Box {
  const w = round(clamp(box.w, minMaskSide, 1));
  const h = round(clamp(box.h, minMaskSide, 1));
  return { x: round(clamp(box.x, 0, 1 - w)), y: round(clamp(box.y, 0, 1 - h)), w, h };
}

/** A box moved by (dx, dy), kept whole inside the image. */
export function moveBox(box: Box, dx: number, dy: number): Box {
  return tidy({ x: clamp(box.x + dx, 0, 1 - box.w), y: clamp(box.y + dy, 0, 1 - box.h), w: box.w, h: box.h });
}

/** A box whose `corner` is dragged by (dx, dy); the opposite corner stays, the box stays inside the image. */
export function resizeBox(box: Box, corner: Corner, dx: number, dy: number): Box {
  let left = box.x;
  let top = box.y;
  let right = box.x + box.w;
  let bottom = box.y + box.h;
  if (corner === 'nw' || corner === 'sw') left = clamp(left + dx, 0, right - minMaskSide);
  else right = clamp(right + dx, left + minMaskSide, 1);
  if (corner === 'nw' || corner === 'ne') top = clamp(top + dy, 0, bottom - minMaskSide);
  else bottom = clamp(bottom + dy, top + minMaskSide, 1);
  return tidy({ x: left, y: top, w: right - left, h: bottom - top });
}

/** The box spanned by two points of a drag, in any direction, inside the image. */
export function boxBetween(a: { x: number; y: number }, b: { x: number; y: number }): Box {
  const left = clamp(Math.min(a.x, b.x), 0, 1);
  const top = clamp(Math.min(a.y, b.y), 0, 1);
  const right = clamp(Math.max(a.x, b.x), 0, 1);
  const bottom = clamp(Math.max(a.y, b.y), 0, 1);
  return tidy({ x: left, y: top, w: right - left, h: bottom - top });
}

const highestGroup = (masks: readonly OcclusionMask[]) => masks.reduce((high, mask) => Math.max(high, mask.group), 0);
const nextGroup = (masks: readonly OcclusionMask[]) => Math.min(highestGroup(masks) + 1, noteLimits.maxOcclusionGroup);

/** The editor's state for a note's masks (none selected). */
export function initialMaskState(masks: readonly OcclusionMask[]): MaskEditorState {
  return {
    masks: masks.map((mask, index) => ({ ...mask, id: index + 1 })),
    selected: [],
    nextId: masks.length + 1,
    announcement: '',
  };
}

/** The masks as the note stores them: boxes, groups and a shape only for ellipses. */
export function noteMasks(state: MaskEditorState): OcclusionMask[] {
  return state.masks.map(({ x, y, w, h, group, shape }) =>
    shape === 'ellipse' ? { x, y, w, h, group, shape } : { x, y, w, h, group },
  );
}

/** Suggested label boxes as masks: one card each, in the order given. */
export function masksOfBoxes(boxes: readonly Box[]): OcclusionMask[] {
  return boxes.map((box, index) => ({ ...tidy(box), group: index + 1 }));
}

/** How many cards the masks make (one per group). */
export const cardCount = (masks: readonly OcclusionMask[]) => new Set(masks.map((mask) => mask.group)).size;

function update(state: MaskEditorState, ids: readonly number[], change: (mask: EditorMask) => EditorMask) {
  return state.masks.map((mask) => (ids.includes(mask.id) ? change(mask) : mask));
}

export function maskReducer(state: MaskEditorState, action: MaskAction): MaskEditorState {
  switch (action.type) {
    case 'replace':
      return initialMaskState(action.masks);
    case 'add': {
      if (state.masks.length >= noteLimits.maxOcclusionMasks) return state;
      const group = nextGroup(state.masks);
      const mask: EditorMask = { ...tidy(action.box), group, id: state.nextId };
      if (action.shape === 'ellipse') mask.shape = 'ellipse';
      return {
        masks: [...state.masks, mask],
        selected: [mask.id],
        nextId: state.nextId + 1,
        announcement: fillMessage(occlusionMessages.announceAdded, { n: state.masks.length + 1, group }),
      };
    }
    case 'select': {
      const has = state.selected.includes(action.id);
      let selected: number[];
      if (!action.toggle) selected = [action.id];
      else selected = has ? state.selected.filter((id) => id !== action.id) : [...state.selected, action.id];
      return {
        ...state,
        selected,
        announcement: fillMessage(occlusionMessages.announceSelected, { count: selected.length }),
      };
    }
    case 'clear-selection':
      return state.selected.length === 0 ? state : { ...state, selected: [], announcement: '' };
    case 'place': {
      const boxes = new Map(action.boxes.map((box) => [box.id, box]));
      const masks = state.masks.map((mask) => {
        const box = boxes.get(mask.id);
        return box ? { ...mask, ...tidy(box) } : mask;
      });
      return {
        ...state,
        masks,
        announcement: action.resized ? occlusionMessages.announceResized : occlusionMessages.announceMoved,
      };
    }
    case 'nudge':
      return {
        ...state,
        masks: update(state, action.ids, (mask) => ({ ...mask, ...moveBox(mask, action.dx, action.dy) })),
        announcement: occlusionMessages.announceMoved,
      };
    case 'grow':
      return {
        ...state,
        masks: update(state, action.ids, (mask) => ({ ...mask, ...resizeBox(mask, 'se', action.dw, action.dh) })),
        announcement: occlusionMessages.announceResized,
      };
    case 'delete': {
      const masks = state.masks.filter((mask) => !action.ids.includes(mask.id));
      if (masks.length === state.masks.length) return state;
      return {
        ...state,
        masks,
        selected: state.selected.filter((id) => !action.ids.includes(id)),
        announcement: fillMessage(occlusionMessages.announceDeleted, { count: state.masks.length - masks.length }),
      };
    }
    case 'group': {
      const chosen = state.masks.filter((mask) => action.ids.includes(mask.id));
      if (chosen.length < 2) return state;
      const group = Math.min(...chosen.map((mask) => mask.group));
      return {
        ...state,
        masks: update(state, action.ids, (mask) => ({ ...mask, group })),
        announcement: fillMessage(occlusionMessages.announceGrouped, { count: chosen.length, group }),
      };
    }
    case 'ungroup': {
      const chosen = state.masks.filter((mask) => action.ids.includes(mask.id));
      if (chosen.length === 0) return state;
      // A mask alone in its group stays; of a group chosen whole, the first mask keeps the group (and so its
      // card's history); every other chosen mask gets a card of its own.
      let free = highestGroup(state.masks);
      const regrouped = new Map<number, number>();
      for (const mask of chosen) {
        const same = state.masks.filter((other) => other.group === mask.group);
        const wholeGroup = same.every((other) => action.ids.includes(other.id));
        if (same.length === 1 || (wholeGroup && same[0]?.id === mask.id)) continue;
        free = Math.min(free + 1, noteLimits.maxOcclusionGroup);
        regrouped.set(mask.id, free);
      }
      return {
        ...state,
        masks: state.masks.map((mask) => {
          const group = regrouped.get(mask.id);
          return group === undefined ? mask : { ...mask, group };
        }),
        announcement: fillMessage(occlusionMessages.announceUngrouped, { count: chosen.length }),
      };
    }
  }
}
