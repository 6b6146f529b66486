import { limits } from './limits';
import { fillMessage, type MessageKey, messages } from './messages';

/**
 * Notes and the cards they make (api-contract.md, "Notes and card types"), shared by the server (which stores the
 * rendered cards) and the web app (which previews them while the learner writes). Pure: no I/O, no clock.
 */

export const noteTypes = ['basic', 'reversed', 'cloze', 'occlusion'] as const;
export type NoteType = (typeof noteTypes)[number];

/** The note types POST /notes and POST /save-cards accept: all of them. */
export const creatableNoteTypes = ['basic', 'reversed', 'cloze', 'occlusion'] as const;
export type CreatableNoteType = (typeof creatableNoteTypes)[number];

/** The note types written as two text boxes (the Add Card form's text notes; occlusion has its own editor). */
export const textNoteTypes = ['basic', 'reversed', 'cloze'] as const;
export type TextNoteType = (typeof textNoteTypes)[number];

export const cardTypes = ['basic', 'reverse', 'cloze', 'occlusion'] as const;
export type CardType = (typeof cardTypes)[number];

export interface BasicFields {
  front: string;
  back: string;
}

export interface ClozeFields {
  text: string;
  extra?: string;
}

export interface OcclusionMask {
  /** Fractions 0–1 of the image's width and height. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** An integer ≥ 1: one card per distinct group. */
  group: number;
  /** The mask's outline inside its box: a rectangle when absent (Anki's ellipses import as `ellipse`). */
  shape?: OcclusionShape;
}

export const occlusionShapes = ['rect', 'ellipse'] as const;
export type OcclusionShape = (typeof occlusionShapes)[number];

export const occlusionModes = ['hide_one', 'hide_all'] as const;
export type OcclusionMode = (typeof occlusionModes)[number];

/** What an occlusion card shows (Card's `occlusion`): its masks, the card's own group marked `target`. */
export interface OcclusionView {
  image_url: string;
  mode: OcclusionMode;
  masks: { x: number; y: number; w: number; h: number; target: boolean; shape?: OcclusionShape }[];
}

export interface OcclusionFields {
  /** A media name of the user's. */
  image: string;
  masks: OcclusionMask[];
  mode: OcclusionMode;
  header?: string;
  back_extra?: string;
}

export interface NoteFieldsByType {
  basic: BasicFields;
  reversed: BasicFields;
  cloze: ClozeFields;
  occlusion: OcclusionFields;
}

export type NoteFields = NoteFieldsByType[NoteType];

/** A note's type with the fields of that type. */
export type NoteContent =
  | { type: 'basic'; fields: BasicFields }
  | { type: 'reversed'; fields: BasicFields }
  | { type: 'cloze'; fields: ClozeFields }
  | { type: 'occlusion'; fields: OcclusionFields };

/** A note type that makes cards, with its fields. */
export type CreatableNoteContent = Extract<NoteContent, { type: CreatableNoteType }>;

/** A text note (basic, reversed, cloze) with its fields. */
export type TextNoteContent = Extract<NoteContent, { type: TextNoteType }>;

/** One card a note makes: what review shows (markdown), and which card of the note it is. */
export interface RenderedCard {
  card_type: CardType;
  ord: number;
  question: string;
  answer: string;
  /** An occlusion card's masks and image. */
  occlusion?: OcclusionView;
}

/** Why a note cannot be saved: a shared message and what fills its placeholders. */
export interface NoteProblem {
  message: MessageKey;
  values?: Record<string, string | number>;
}

export type NoteCheck =
  | { ok: true; note: CreatableNoteContent; cards: RenderedCard[] }
  | { ok: false; problem: NoteProblem };

export const noteLimits = {
  /** Cloze numbers run from 1 to this ({{c1::…}} … {{c500::…}}), so a note makes at most this many cards. */
  maxClozeNumber: 500,
  /** Each field of a note, in characters: the same bound as a card's question or answer. */
  maxFieldLength: limits.maxCardSideLength,
  /** Cloze deletions inside cloze deletions, at most this deep. */
  maxClozeNesting: 8,
  /** Masks of one occlusion note. */
  maxOcclusionMasks: 100,
  /** Occlusion groups run from 1 to this, so a note makes at most this many cards. */
  maxOcclusionGroup: 100,
  /** A media name, in characters. */
  maxMediaNameLength: 200,
} as const;

/** The person-readable text of a problem (the `detail` of the 422 the server answers). */
export function noteProblemText(problem: NoteProblem): string {
  const template = messages[problem.message];
  return problem.values ? fillMessage(template, problem.values) : template;
}

const problem = (message: MessageKey, values?: NoteProblem['values']): { ok: false; problem: NoteProblem } => ({
  ok: false,
  problem: values ? { message, values } : { message },
});

// ---------------------------------------------------------------------------------------------------------------
// Cloze parsing

/** A piece of cloze text: plain text, or a deletion with its number, its content and its optional hint. */
export type ClozeNode = { kind: 'text'; text: string } | ClozeDeletion;

export interface ClozeDeletion {
  kind: 'cloze';
  number: number;
  children: ClozeNode[];
  hint: string | null;
}

export type ClozeParse = { ok: true; nodes: ClozeNode[]; numbers: number[] } | { ok: false; problem: NoteProblem };

interface OpenDeletion {
  number: number;
  children: ClozeNode[];
  /** Single braces opened inside this deletion and not yet closed (LaTeX groups like `\frac{a}{b}`). */
  braceDepth: number;
  /** Where the hint starts in the source, once `::` has been met at brace depth 0. */
  hintStart: number;
  /** Where the current run of plain text starts in the source. */
  textStart: number;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Reads `{{cN::answer}}` and `{{cN::answer::hint}}` deletions in one left-to-right pass (linear in the text's
 * length, no regular expressions), so hostile text cannot make it slow.
 *
 * - A deletion ends at the first `}}` met outside any single braces opened inside it, so math such as
 *   `{{c1::$\frac{1}{\sqrt{2}}$}}` keeps its braces; `\{` and `\}` are escaped braces and do not count.
 * - The hint is what follows the first `::` outside braces; deletions may hold other deletions, as in Anki.
 * - A `{{cN::` that is never closed, a number 0 or above 500, an empty deletion and nesting deeper than 8 are
 *   problems; `{{` not followed by `c`, digits and `::` is plain text.
 */
export function parseCloze(text: string): ClozeParse {
  const root: ClozeNode[] = [];
  const stack: OpenDeletion[] = [];
  const numbers = new Set<number>();
  let textStart = 0;
  let i = 0;

  const flushText = (end: number) => {
    const start = stack.length > 0 ? (stack[stack.length - 1] as OpenDeletion).textStart : textStart;
    if (end > start) {
      const target = stack.length > 0 ? (stack[stack.length - 1] as OpenDeletion).children : root;
      target.push({ kind: 'text', text: text.slice(start, end) });
    }
  };
  const setTextStart = (position: number) => {
    if (stack.length > 0) (stack[stack.length - 1] as OpenDeletion).textStart = position;
    else textStart = position;
  };

  while (i < text.length) {
    const code = text.charCodeAt(i);
    const top = stack.length > 0 ? (stack[stack.length - 1] as OpenDeletion) : null;
    const inHint = top !== null && top.hintStart >= 0;

    // Inside a deletion a backslash escapes the next character (LaTeX `\{`, `\}`, `\\`); outside, braces do not matter.
    if (code === 92 /* \ */ && top !== null) {
      i += 2;
      continue;
    }
    // An opener: `{{c` digits `::`. Inside a hint it is plain text (a hint is shown as written).
    if (code === 123 /* { */ && text.charCodeAt(i + 1) === 123 && !inHint) {
      const letter = text.charCodeAt(i + 2);
      if (letter === 99 /* c */ || letter === 67 /* C */) {
        let j = i + 3;
        while (j < text.length && isDigit(text.charCodeAt(j))) j++;
        if (j > i + 3 && text.charCodeAt(j) === 58 && text.charCodeAt(j + 1) === 58) {
          const digits = text.slice(i + 3, j);
          const number = Number(digits);
          if (j - (i + 3) > 3 || number < 1 || number > noteLimits.maxClozeNumber) {
            return problem('clozeNumberOutOfRange', { number: digits, max: noteLimits.maxClozeNumber });
          }
          if (stack.length >= noteLimits.maxClozeNesting) {
            return problem('clozeNestedTooDeep', { max: noteLimits.maxClozeNesting });
          }
          flushText(i);
          stack.push({ number, children: [], braceDepth: 0, hintStart: -1, textStart: j + 2 });
          i = j + 2;
          continue;
        }
      }
    }
    if (top === null) {
      i++;
      continue;
    }
    if (code === 123 /* { */) {
      top.braceDepth++;
      i++;
      continue;
    }
    if (code === 125 /* } */) {
      if (top.braceDepth > 0) {
        top.braceDepth--;
        i++;
        continue;
      }
      if (text.charCodeAt(i + 1) === 125) {
        // The deletion ends here.
        let hint: string | null = null;
        if (top.hintStart >= 0) {
          hint = text.slice(top.hintStart, i).trim();
        } else {
          flushText(i);
        }
        stack.pop();
        if (!hasContent(top.children)) return problem('clozeEmpty', { number: top.number });
        numbers.add(top.number);
        const deletion: ClozeDeletion = { kind: 'cloze', number: top.number, children: top.children, hint };
        const parent = stack.length > 0 ? (stack[stack.length - 1] as OpenDeletion).children : root;
        parent.push(deletion);
        i += 2;
        setTextStart(i);
        continue;
      }
      // A single stray `}` at depth 0 is plain text.
      i++;
      continue;
    }
    if (code === 58 /* : */ && !inHint && top.braceDepth === 0 && text.charCodeAt(i + 1) === 58) {
      flushText(i);
      top.hintStart = i + 2;
      i += 2;
      continue;
    }
    i++;
  }

  if (stack.length > 0) {
    return problem('clozeUnclosed', { number: (stack[stack.length - 1] as OpenDeletion).number });
  }
  if (text.length > textStart) root.push({ kind: 'text', text: text.slice(textStart) });
  if (numbers.size === 0) return problem('clozeMissing');
  return { ok: true, nodes: root, numbers: [...numbers].sort((a, b) => a - b) };
}

function hasContent(nodes: ClozeNode[]): boolean {
  return nodes.some((node) => node.kind === 'cloze' || node.text.trim() !== '');
}

/** The text of nodes with every deletion filled in (what the learner sees once nothing is hidden). */
function filled(nodes: ClozeNode[], out: string[]): void {
  for (const node of nodes) {
    if (node.kind === 'text') out.push(node.text);
    else filled(node.children, out);
  }
}

/** The question of card `number`: its own deletions as `[...]` or `[hint]`, the others filled in. */
function clozeQuestion(nodes: ClozeNode[], number: number, out: string[]): void {
  for (const node of nodes) {
    if (node.kind === 'text') out.push(node.text);
    else if (node.number === number) out.push(node.hint ? `[${node.hint}]` : '[...]');
    else clozeQuestion(node.children, number, out);
  }
}

/** The answer of card `number`: the whole text with its own deletions in bold (spaces kept outside the stars). */
function clozeAnswer(nodes: ClozeNode[], number: number, out: string[]): void {
  for (const node of nodes) {
    if (node.kind === 'text') out.push(node.text);
    else if (node.number === number) {
      const parts: string[] = [];
      filled(node.children, parts);
      const inner = parts.join('');
      const core = inner.trim();
      const lead = inner.slice(0, inner.length - inner.trimStart().length);
      const trail = inner.slice(inner.trimEnd().length);
      out.push(`${lead}**${core}**${trail}`);
    } else clozeAnswer(node.children, number, out);
  }
}

/** The cards of a parsed cloze text, one per distinct number, in number order. */
export function clozeCards(parsed: Extract<ClozeParse, { ok: true }>, extra?: string): RenderedCard[] {
  const tail = extra?.trim() ? `\n\n${extra.trim()}` : '';
  return parsed.numbers.map((number) => {
    const question: string[] = [];
    const answer: string[] = [];
    clozeQuestion(parsed.nodes, number, question);
    clozeAnswer(parsed.nodes, number, answer);
    return { card_type: 'cloze', ord: number - 1, question: question.join(''), answer: `${answer.join('')}${tail}` };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Validation and rendering

/** Whether a value is a note type POST /notes accepts today. */
export const isCreatableNoteType = (value: unknown): value is CreatableNoteType =>
  typeof value === 'string' && (creatableNoteTypes as readonly string[]).includes(value);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function onlyKeys(fields: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(fields).every((key) => allowed.includes(key));
}

/** A required text field: a string, not blank, at most the field limit. */
function textField(
  value: unknown,
  name: string,
  required: boolean,
): { ok: true; value: string | undefined } | { ok: false; problem: NoteProblem } {
  if (value === undefined || value === null) {
    return required ? problem('noteFieldEmpty', { field: name }) : { ok: true, value: undefined };
  }
  if (typeof value !== 'string') return problem('noteFieldNotText', { field: name });
  if (value.length > noteLimits.maxFieldLength) {
    return problem('noteFieldTooLong', { field: name, max: noteLimits.maxFieldLength.toLocaleString('en-US') });
  }
  if (required && value.trim() === '') return problem('noteFieldEmpty', { field: name });
  return { ok: true, value };
}

/**
 * Checks a note as a client sent it (`type` and `fields` of any JSON shape) and renders its cards. Every problem
 * is one of the shared messages (docs/api.md, POST /notes); nothing here trusts the input's shape.
 */
export function checkNote(type: unknown, fields: unknown): NoteCheck {
  if (!isCreatableNoteType(type)) return problem('noteTypeUnknown');
  if (!isRecord(fields)) return problem('noteFieldsInvalid', { type });
  if (type === 'occlusion') return checkOcclusion(fields);
  if (type === 'basic' || type === 'reversed') {
    if (!onlyKeys(fields, ['front', 'back'])) return problem('noteFieldsInvalid', { type });
    const front = textField(fields.front, 'front', true);
    if (!front.ok) return front;
    const back = textField(fields.back, 'back', true);
    if (!back.ok) return back;
    const note: CreatableNoteContent = { type, fields: { front: front.value as string, back: back.value as string } };
    return { ok: true, note, cards: renderNote(note) };
  }
  if (!onlyKeys(fields, ['text', 'extra'])) return problem('noteFieldsInvalid', { type });
  const text = textField(fields.text, 'text', true);
  if (!text.ok) return text;
  const extra = textField(fields.extra, 'extra', false);
  if (!extra.ok) return extra;
  const parsed = parseCloze(text.value as string);
  if (!parsed.ok) return parsed;
  const clozeFields: ClozeFields =
    extra.value === undefined ? { text: text.value as string } : { text: text.value as string, extra: extra.value };
  return { ok: true, note: { type: 'cloze', fields: clozeFields }, cards: clozeCards(parsed, extra.value) };
}

/**
 * The cards a stored (already checked) note makes, in ord order. A cloze text that no longer parses makes no card.
 */
export function renderNote(note: NoteContent): RenderedCard[] {
  switch (note.type) {
    case 'basic':
      return [{ card_type: 'basic', ord: 0, question: note.fields.front, answer: note.fields.back }];
    case 'reversed':
      return [
        { card_type: 'basic', ord: 0, question: note.fields.front, answer: note.fields.back },
        { card_type: 'reverse', ord: 1, question: note.fields.back, answer: note.fields.front },
      ];
    case 'cloze': {
      const parsed = parseCloze(note.fields.text);
      return parsed.ok ? clozeCards(parsed, note.fields.extra) : [];
    }
    case 'occlusion':
      return occlusionCards(note.fields);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Image occlusion

/** A media name as stored: letters, digits, dots, dashes and underscores (a content hash and an extension). */
const mediaNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Mask edges may overshoot the image by this much (rounding of fractions computed from pixels). */
const edgeSlack = 1e-6;

const isFraction = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;

/** The URL GET /media serves a media name at. */
export const mediaUrl = (name: string) => `/media/${name}`;

function checkMask(value: unknown, n: number): { ok: true; mask: OcclusionMask } | { ok: false; problem: NoteProblem } {
  if (!isRecord(value) || !onlyKeys(value, ['x', 'y', 'w', 'h', 'group', 'shape'])) {
    return problem('occlusionMaskInvalid', { n });
  }
  const { x, y, w, h, group, shape } = value;
  if (!isFraction(x) || !isFraction(y) || !isFraction(w) || !isFraction(h))
    return problem('occlusionMaskInvalid', { n });
  if (w <= 0 || h <= 0) return problem('occlusionMaskEmpty', { n });
  if (x + w > 1 + edgeSlack || y + h > 1 + edgeSlack) return problem('occlusionMaskOutside', { n });
  if (typeof group !== 'number' || !Number.isInteger(group) || group < 1 || group > noteLimits.maxOcclusionGroup) {
    return problem('occlusionGroupOutOfRange', { n, max: noteLimits.maxOcclusionGroup });
  }
  if (shape !== undefined && !(occlusionShapes as readonly unknown[]).includes(shape)) {
    return problem('occlusionMaskInvalid', { n });
  }
  const mask: OcclusionMask = { x, y, w, h, group };
  if (shape === 'ellipse') mask.shape = 'ellipse';
  return { ok: true, mask };
}

/** Checks an occlusion note's fields (any JSON object) and renders its cards, one per group. */
function checkOcclusion(fields: Record<string, unknown>): NoteCheck {
  if (!onlyKeys(fields, ['image', 'masks', 'mode', 'header', 'back_extra'])) {
    return problem('noteFieldsInvalid', { type: 'occlusion' });
  }
  const { image, masks, mode } = fields;
  if (
    typeof image !== 'string' ||
    image.length > noteLimits.maxMediaNameLength ||
    !mediaNamePattern.test(image) ||
    image.includes('..')
  ) {
    return problem('occlusionImageInvalid');
  }
  if (!Array.isArray(masks) || masks.length === 0) return problem('occlusionMasksMissing');
  if (masks.length > noteLimits.maxOcclusionMasks) {
    return problem('occlusionTooManyMasks', { max: noteLimits.maxOcclusionMasks });
  }
  const checked: OcclusionMask[] = [];
  for (const [index, value] of masks.entries()) {
    const mask = checkMask(value, index + 1);
    if (!mask.ok) return mask;
    checked.push(mask.mask);
  }
  if (typeof mode !== 'string' || !(occlusionModes as readonly string[]).includes(mode)) {
    return problem('occlusionModeInvalid');
  }
  const header = textField(fields.header, 'header', false);
  if (!header.ok) return header;
  const backExtra = textField(fields.back_extra, 'back_extra', false);
  if (!backExtra.ok) return backExtra;
  const occlusion: OcclusionFields = { image, masks: checked, mode: mode as OcclusionMode };
  if (header.value !== undefined) occlusion.header = header.value;
  if (backExtra.value !== undefined) occlusion.back_extra = backExtra.value;
  return { ok: true, note: { type: 'occlusion', fields: occlusion }, cards: occlusionCards(occlusion) };
}

/** The distinct groups of an occlusion note's masks, ascending: one card each. */
export function occlusionGroups(masks: readonly OcclusionMask[]): number[] {
  return [...new Set(masks.map((mask) => mask.group))].sort((a, b) => a - b);
}

/**
 * The cards of an occlusion note, one per group (ord = group − 1). Question and answer stay readable text for a
 * client that knows only basic cards (the header, the extra); `occlusion` is what a client draws over the image.
 */
export function occlusionCards(fields: OcclusionFields): RenderedCard[] {
  const groups = occlusionGroups(fields.masks);
  const header = fields.header?.trim();
  const extra = fields.back_extra?.trim();
  return groups.map((group) => {
    const label = fillMessage(messages.occlusionCardLabel, { n: group, count: groups.length });
    return {
      card_type: 'occlusion',
      ord: group - 1,
      question: header ? `${header}\n\n${label}` : label,
      answer: extra ? `${label}\n\n${extra}` : label,
      occlusion: {
        image_url: mediaUrl(fields.image),
        mode: fields.mode,
        masks: fields.masks.map((mask) => ({
          x: mask.x,
          y: mask.y,
          w: mask.w,
          h: mask.h,
          target: mask.group === group,
          ...(mask.shape === 'ellipse' ? { shape: 'ellipse' as const } : {}),
        })),
      },
    };
  });
}

/** The next cloze number to use in a text (one above the highest, 1 for none): the Add Card form's wrap button. */
export function nextClozeNumber(text: string): number {
  let highest = 0;
  let i = text.indexOf('{{c');
  while (i >= 0) {
    let j = i + 3;
    while (j < text.length && isDigit(text.charCodeAt(j))) j++;
    if (j > i + 3 && j - i <= 6 && text.startsWith('::', j)) highest = Math.max(highest, Number(text.slice(i + 3, j)));
    i = text.indexOf('{{c', i + 3);
  }
  return Math.min(highest + 1, noteLimits.maxClozeNumber);
}
