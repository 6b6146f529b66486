/**
 * Anki card templates, rendered the way Anki shows a card (after Anki's rslib template.rs and cloze.rs, written
 * anew): `{{Field}}`, `{{#Field}}…{{/Field}}`, `{{^Field}}…{{/Field}}`, `{{FrontSide}}`, and the filters `text:`,
 * `hint:`, `type:`, `furigana:`, `kana:`, `kanji:` and `cloze:`, applied right to left (`{{text:cloze:Text}}`
 * reveals the cloze, then strips the HTML). The output is HTML, as Anki's is.
 */

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'field'; name: string; filters: string[] }
  | { kind: 'section'; name: string; negated: boolean; children: Node[] };

/** A template or cloze nested deeper, or a card rendered longer, than any real deck needs: the package is refused. */
export class TemplateTooComplexError extends Error {
  override name = 'TemplateTooComplexError';
}

/** Section and cloze nesting at most (Anki's own decks nest a handful). */
export const maxNesting = 100;
/** One side of a card as rendered HTML at most (the card limit is far below; this bounds amplification). */
export const maxRenderedChars = 1_000_000;

/** Each `{{…}}` tag of a template, found with indexOf so that any template, however hostile, takes linear time. */
function* templateTags(template: string): Generator<{ start: number; end: number; inner: string }> {
  let from = 0;
  for (;;) {
    const start = template.indexOf('{{', from);
    if (start < 0) return;
    const close = template.indexOf('}}', start + 2);
    if (close < 0) return;
    yield { start, end: close + 2, inner: template.slice(start + 2, close) };
    from = close + 2;
  }
}

/** Parses a template; unbalanced section tags are kept as text, as Anki shows them as an error rather than fail. */
export function parseTemplate(template: string): Node[] {
  const root: Node[] = [];
  const stack: { name: string; negated: boolean; children: Node[] }[] = [];
  const current = () => stack.at(-1)?.children ?? root;
  let last = 0;
  for (const tag of templateTags(template)) {
    const start = tag.start;
    if (start > last) current().push({ kind: 'text', text: template.slice(last, start) });
    last = tag.end;
    const inner = tag.inner.trim();
    const head = inner[0];
    if (head === '#' || head === '^') {
      if (stack.length >= maxNesting) throw new TemplateTooComplexError('template sections nested too deep');
      stack.push({ name: inner.slice(1).trim(), negated: head === '^', children: [] });
    } else if (head === '/') {
      const name = inner.slice(1).trim();
      const open = stack.at(-1);
      if (open && open.name === name) {
        stack.pop();
        current().push({ kind: 'section', ...open });
      }
    } else if (head === '!') {
      // A comment.
    } else {
      const parts = inner.split(':');
      const name = (parts.pop() ?? '').trim();
      current().push({ kind: 'field', name, filters: parts.map((part) => part.trim()) });
    }
  }
  if (last < template.length) current().push({ kind: 'text', text: template.slice(last) });
  // Sections never closed: their content still shows.
  while (stack.length > 0) {
    const open = stack.pop();
    if (open) current().push(...open.children);
  }
  return root;
}

const emptyField = /^(?:\s|<\/?(?:br|div)\s?\/?>|&nbsp;)*$/i;

/** Anki's rule: a field of only whitespace, `<br>` and `<div>` tags is empty. */
export function fieldIsEmpty(text: string): boolean {
  return emptyField.test(text);
}

export interface RenderContext {
  /** The note's fields by name. */
  fields: ReadonlyMap<string, string>;
  /** The card's ordinal: its template's index, or for a cloze note the cloze number minus one. */
  cardOrd: number;
  question: boolean;
  /** The rendered question, for `{{FrontSide}}` on the answer side. */
  frontSide?: string;
}

export function renderTemplate(template: string, context: RenderContext): string {
  return renderNodes(parseTemplate(template), context);
}

function renderNodes(nodes: Node[], context: RenderContext): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') {
      out += node.text;
    } else if (node.kind === 'section') {
      const value = sectionValue(node.name, context);
      const present = !fieldIsEmpty(value);
      if (present !== node.negated) out += renderNodes(node.children, context);
    } else {
      out += renderField(node.name, node.filters, context);
    }
    if (out.length > maxRenderedChars) throw new TemplateTooComplexError('a card side renders too long');
  }
  return out;
}

/** A section on `cN` (cloze notes) is present when the card is that cloze. */
function sectionValue(name: string, context: RenderContext): string {
  const field = context.fields.get(name);
  if (field !== undefined) return field;
  const cloze = /^c(\d+)$/.exec(name);
  if (cloze) return Number(cloze[1]) === context.cardOrd + 1 ? '1' : '';
  return '';
}

function renderField(name: string, filters: string[], context: RenderContext): string {
  if (name === 'FrontSide' && filters.length === 0) return context.question ? '' : (context.frontSide ?? '');
  const special: Record<string, string> = { Tags: '', Type: '', Deck: '', Subdeck: '', Card: '', CardFlag: '' };
  let value = context.fields.get(name) ?? special[name] ?? '';
  for (const filter of [...filters].reverse()) value = applyFilter(filter, value, context);
  return value;
}

function applyFilter(filter: string, value: string, context: RenderContext): string {
  switch (filter) {
    case 'text':
      return stripHtml(value);
    case 'cloze':
      return revealCloze(value, context.cardOrd + 1, context.question);
    case 'cloze-only':
      return clozeAnswers(value, context.cardOrd + 1).join(', ');
    case 'type':
      // Anki asks for typing on the question and compares on the answer, which shows the right answer.
      return context.question ? '' : value;
    case 'hint':
      return value;
    case 'furigana':
      return furigana(value, (base, reading) => `${base}(${reading})`);
    case 'kana':
      return furigana(value, (_base, reading) => reading);
    case 'kanji':
      return furigana(value, (base) => base);
    default:
      // Other filters (tts, add-on filters) leave the text as it is.
      if (filter.startsWith('tts')) return '';
      return value;
  }
}

/** Removes tags, and scripts and styles with their content, in one linear pass (a regex here was quadratic). */
export function stripHtml(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  // Once a closing tag is known to be absent, it is never searched for again (that search made it quadratic).
  const noClose = new Set<string>();
  for (;;) {
    const open = html.indexOf('<', at);
    if (open < 0) break;
    out += html.slice(at, open);
    const block = lower.startsWith('<script', open) ? 'script' : lower.startsWith('<style', open) ? 'style' : null;
    if (block && !noClose.has(block)) {
      const closing = `</${block}>`;
      const close = lower.indexOf(closing, open + 1);
      if (close >= 0) {
        at = close + closing.length;
        continue;
      }
      noClose.add(block);
    }
    const end = html.indexOf('>', open + 1);
    if (end < 0) {
      // No tag can close any more: the rest is text.
      at = open;
      break;
    }
    at = end + 1;
  }
  out += html.slice(at);
  return out.replaceAll('&nbsp;', ' ');
}

/** `漢字[かんじ]`: Anki's reading annotation, found with indexOf in linear time. */
function furigana(text: string, show: (base: string, reading: string) => string): string {
  let out = '';
  let last = 0;
  let from = 0;
  let close = -1;
  for (;;) {
    const open = text.indexOf('[', from);
    if (open < 0) break;
    if (close <= open) close = text.indexOf(']', open + 1);
    if (close < 0) break;
    // The base is the run before `[` of characters other than a space, `>`, `[` and `]`.
    let start = open;
    while (start > last && !' >[]'.includes(text[start - 1] ?? ' ')) start--;
    if (start === open) {
      from = open + 1;
      continue;
    }
    const from0 = start > last && text[start - 1] === ' ' ? start - 1 : start;
    const reading = text.slice(open + 1, close);
    out += text.slice(last, from0);
    out += reading.startsWith('sound:') ? text.slice(from0, close + 1) : show(text.slice(start, open), reading);
    last = close + 1;
    from = last;
  }
  return out + text.slice(last);
}

type ClozeNode = { kind: 'text'; text: string } | { kind: 'cloze'; ord: number; children: ClozeNode[]; hint: string };

/** Parses `{{c1::text::hint}}`, nested clozes included (Anki 2.1.56+). */
function parseClozes(text: string): ClozeNode[] {
  const root: ClozeNode[] = [];
  const stack: { ord: number; children: ClozeNode[] }[] = [];
  const current = () => stack.at(-1)?.children ?? root;
  const token = /\{\{c(\d+)::|\}\}/g;
  let last = 0;
  for (const match of text.matchAll(token)) {
    const start = match.index ?? 0;
    if (match[0] === '}}' && stack.length === 0) continue;
    if (start > last) current().push({ kind: 'text', text: text.slice(last, start) });
    last = start + match[0].length;
    if (match[1] !== undefined) {
      if (stack.length >= maxNesting) throw new TemplateTooComplexError('clozes nested too deep');
      stack.push({ ord: Number(match[1]), children: [] });
    } else {
      const open = stack.pop();
      if (!open) continue;
      // The hint is what follows the last top-level `::` of the cloze's own text.
      let hint = '';
      const lastChild = open.children.at(-1);
      if (lastChild?.kind === 'text') {
        const at = lastChild.text.lastIndexOf('::');
        if (at >= 0) {
          hint = lastChild.text.slice(at + 2);
          lastChild.text = lastChild.text.slice(0, at);
        }
      }
      current().push({ kind: 'cloze', ord: open.ord, children: open.children, hint });
    }
  }
  if (last < text.length) current().push({ kind: 'text', text: text.slice(last) });
  while (stack.length > 0) {
    const open = stack.pop();
    if (open) current().push({ kind: 'text', text: `{{c${open.ord}::` }, ...open.children);
  }
  return root;
}

/** The question shows the card's cloze as `[...]` (or `[hint]`); the answer shows it filled, in bold. */
export function revealCloze(text: string, ord: number, question: boolean): string {
  const render = (nodes: ClozeNode[]): string =>
    nodes
      .map((node) => {
        if (node.kind === 'text') return node.text;
        if (node.ord !== ord) return render(node.children);
        if (question) return node.hint ? `[${node.hint}]` : '[...]';
        return `<b>${render(node.children)}</b>`;
      })
      .join('');
  return render(parseClozes(text));
}

function clozeAnswers(text: string, ord: number): string[] {
  const answers: string[] = [];
  const walk = (nodes: ClozeNode[]) => {
    for (const node of nodes) {
      if (node.kind !== 'cloze') continue;
      if (node.ord === ord) answers.push(revealCloze(node.children.map(flatten).join(''), ord, false));
      else walk(node.children);
    }
  };
  const flatten = (node: ClozeNode): string =>
    node.kind === 'text'
      ? node.text
      : `{{c${node.ord}::${node.children.map(flatten).join('')}${node.hint ? `::${node.hint}` : ''}}}`;
  walk(parseClozes(text));
  return answers;
}

/** The cloze numbers a text uses. */
export function clozeNumbers(text: string): Set<number> {
  return new Set([...text.matchAll(/\{\{c(\d+)::/g)].map((match) => Number(match[1])));
}

const answerId = /\bid\s*=\s*["']?answer["']?/i;

/** Where Anki's `<hr id=answer>` ends in `html`, or -1; each tag is read once (a regex here was quadratic). */
function afterAnswerRule(html: string): number {
  const lower = html.toLowerCase();
  let from = 0;
  for (;;) {
    const open = lower.indexOf('<hr', from);
    if (open < 0) return -1;
    const end = html.indexOf('>', open + 3);
    if (end < 0) return -1;
    if (answerId.test(html.slice(open + 3, end))) return end + 1;
    from = end + 1;
  }
}

/**
 * A card's question and answer as Anki shows them. The answer side of most templates repeats the question
 * (`{{FrontSide}}<hr id=answer>…`); this app shows the question above the answer, so only what follows that rule
 * becomes the answer.
 */
export function renderCard(
  templates: { qfmt: string; afmt: string },
  fields: ReadonlyMap<string, string>,
  cardOrd: number,
): { question: string; answer: string } {
  const question = renderTemplate(templates.qfmt, { fields, cardOrd, question: true });
  let answer = renderTemplate(templates.afmt, { fields, cardOrd, question: false, frontSide: question });
  const after = afterAnswerRule(answer);
  if (after >= 0) answer = answer.slice(after);
  return { question, answer };
}
