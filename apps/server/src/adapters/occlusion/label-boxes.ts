/** A word tesseract read, in pixels of the image it read. */
export interface WordBox {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  confidence: number;
}

/** One text label: its box in fractions 0–1 of the image, and its words joined by spaces. */
export interface LabelBox {
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
}

/** Words read with less confidence than this are noise (lines, arrows, shading), not labels. */
const minConfidence = 55;
/** Two words are on one line when their vertical centres differ by less than this share of the taller word. */
const sameLineShare = 0.5;
/** Two words of one line belong to one label when the gap between them is below this share of the line's height. */
const wordGapShare = 1.2;

const hasLetterOrDigit = (text: string) => /[\p{L}\p{N}]/u.test(text);

/**
 * Merges the words of each label: words on one line (close vertical centres) whose gap is small for their height
 * become one box; confident words only, ones with a letter or digit. Boxes are fractions of the image, in reading
 * order (top to bottom, left to right).
 */
export function labelBoxes(words: readonly WordBox[], width: number, height: number): LabelBox[] {
  const kept = words
    .filter((word) => word.confidence >= minConfidence && hasLetterOrDigit(word.text))
    .filter((word) => word.x1 > word.x0 && word.y1 > word.y0)
    .sort((a, b) => a.x0 - b.x0);
  const labels: { words: WordBox[]; x0: number; y0: number; x1: number; y1: number }[] = [];
  for (const word of kept) {
    const wordHeight = word.y1 - word.y0;
    const centre = (word.y0 + word.y1) / 2;
    const label = labels.find((candidate) => {
      const lineHeight = Math.max(candidate.y1 - candidate.y0, wordHeight);
      const candidateCentre = (candidate.y0 + candidate.y1) / 2;
      return (
        Math.abs(candidateCentre - centre) < sameLineShare * lineHeight &&
        word.x0 - candidate.x1 < wordGapShare * lineHeight &&
        word.x0 >= candidate.x0
      );
    });
    if (label) {
      label.words.push(word);
      label.x1 = Math.max(label.x1, word.x1);
      label.y0 = Math.min(label.y0, word.y0);
      label.y1 = Math.max(label.y1, word.y1);
    } else {
      labels.push({ words: [word], x0: word.x0, y0: word.y0, x1: word.x1, y1: word.y1 });
    }
  }
  const fraction = (value: number, of: number) => Math.min(1, Math.max(0, value / of));
  return labels
    .map((label) => {
      const x = fraction(label.x0, width);
      const y = fraction(label.y0, height);
      return {
        x,
        y,
        w: fraction(label.x1, width) - x,
        h: fraction(label.y1, height) - y,
        text: label.words.map((word) => word.text).join(' '),
      };
    })
    .sort((a, b) => a.y - b.y || a.x - b.x);
}
