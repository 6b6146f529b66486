/** One run of text as pdf.js places it on the page (PDF user space: y grows upwards). */
export interface PlacedText {
  str: string;
  x: number;
  y: number;
  width: number;
  /** The font size (the text's height on the page). */
  size: number;
  font: string;
}

interface Line {
  text: string;
  x: number;
  end: number;
  y: number;
  size: number;
  font: string;
}

// Items whose baselines differ by less than this share of the font size are on the same line (sub/superscripts).
const sameLineShare = 0.5;
// A gap between two items wider than this share of the font size is a space between words.
const wordGapShare = 0.15;
// A character's width as a share of the font size, on average (to guess whether a word fits at a line's end).
const averageCharShare = 0.5;
// A gap between lines this much wider than the page's usual line spacing starts a new paragraph.
const paragraphGapFactor = 1.35;

/** Groups runs into lines in reading order (the order pdf.js gives), spaces put where the runs are apart. */
function toLines(items: PlacedText[]): Line[] {
  const lines: Line[] = [];
  let line: Line | null = null;
  for (const item of items) {
    if (!item.str) continue;
    const size = Math.abs(item.size) || 1;
    if (line && Math.abs(item.y - line.y) <= sameLineShare * Math.max(size, line.size) && item.x >= line.end - size) {
      const gap = item.x - line.end;
      const spaced = /\s$/.test(line.text) || /^\s/.test(item.str);
      line.text += !spaced && gap > wordGapShare * size ? ` ${item.str}` : item.str;
      // A run of spaces can be drawn as wide as the page (a browser's footer): it does not move the line's end.
      if (item.str.trim()) {
        line.end = Math.max(line.end, item.x + item.width);
        line.size = Math.max(line.size, size);
      }
      continue;
    }
    if (line) lines.push(line);
    line = { text: item.str, x: item.x, end: item.x + item.width, y: item.y, size, font: item.font };
  }
  if (line) lines.push(line);
  return lines.map((l) => ({ ...l, text: l.text.replace(/\s+/g, ' ').trim() })).filter((l) => l.text);
}

function quantile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * share)] ?? 0;
}

const startsItem = /^([•◦▪‣∙·*–—-]\s|\(?\d{1,3}[.)]\s|\(?[a-z][.)]\s)/u;

/**
 * A page's text with its soft line breaks undone: lines wrapped inside a paragraph are joined with a space (a
 * hyphen at a line's end is kept with its line break, for clean-text's dictionary-aware rejoining); a larger gap,
 * a change of font size (a heading), or an indented first line starts a new paragraph ("\n\n"); a short line
 * (a list entry, a heading, a paragraph's last line) ends with "\n".
 */
export function joinPageText(items: PlacedText[]): string {
  const lines = toLines(items);
  if (!lines.length) return '';
  // The text block's edges, from the lines in the page's body size (not a running header, footer or heading).
  const bodySize = quantile(
    lines.map((l) => l.size),
    0.5,
  );
  const body = lines.filter((l) => Math.abs(l.size - bodySize) <= 0.1 * bodySize);
  const left = Math.min(...body.map((l) => l.x));
  const right = Math.max(...body.map((l) => l.end));
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const gap = (lines[i - 1] as Line).y - (lines[i] as Line).y;
    if (gap > 0) gaps.push(gap);
  }
  // Short paragraphs make paragraph gaps nearly as frequent as line gaps: the lower quartile is the line spacing.
  const spacing = quantile(gaps, 0.25);
  let text = (lines[0] as Line).text;
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1] as Line;
    const b = lines[i] as Line;
    const gap = a.y - b.y;
    const sizeChanged = Math.abs(a.size - b.size) > 0.1 * Math.max(a.size, b.size);
    const newParagraph =
      gap <= 0 || sizeChanged || (spacing > 0 && gap > paragraphGapFactor * spacing && gap > 1.2 * a.size);
    // A line was wrapped when the next line's first word would not have fitted after it.
    const nextWord = (b.text.split(' ')[0] ?? '').length * averageCharShare * b.size;
    const full = a.end + 0.3 * a.size + nextWord > right && a.end > left + (right - left) / 2;
    const indented = b.x > a.x + 0.8 * b.size && /[.!?:;"”’)]$/u.test(a.text);
    if (newParagraph || indented) text += `\n\n${b.text}`;
    else if (!full || startsItem.test(b.text) || (a.font !== b.font && a.text.length < 80 && !/\p{Ll}$/u.test(a.text)))
      text += `\n${b.text}`;
    else if (/\p{L}[-‐]$/u.test(a.text)) text += `\n${b.text}`;
    else text += ` ${b.text}`;
  }
  return text;
}
