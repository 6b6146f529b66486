import { describe, expect, it } from 'vitest';
import { decodeCorkControls, rejoinLigatures } from './ligatures';

describe('rejoinLigatures', () => {
  it('replaces ligature glyphs with their letters', () => {
    expect(rejoinLigatures('The ﬁrst ﬂow of eﬀort, eﬃcient and baﬄed')).toBe(
      'The first flow of effort, efficient and baffled',
    );
  });

  it('rejoins split forms inside and at the start of words', () => {
    expect(rejoinLigatures('People learn di ff erently; the fi rst e ff ect is signi fi cant and su ffi cient.')).toBe(
      'People learn differently; the first effect is significant and sufficient.',
    );
    expect(rejoinLigatures('Their in fl uence and the fl ow of ﬁ les')).toBe('Their influence and the flow of files');
  });

  it('leaves real words that end in the same letters alone', () => {
    expect(rejoinLigatures('Turn it off now; the staff left; a riff on it')).toBe(
      'Turn it off now; the staff left; a riff on it',
    );
  });
});

describe('decodeCorkControls', () => {
  it("reads TeX's T1 control codes as ligatures, quotes and dashes, and leaves other text alone", () => {
    expect(decodeCorkControls('\u001cle \u001bect \u001eciency \u001dow \u001f \u0010quoted\u0011 a\u0015b')).toBe(
      'file ffect fficiency flow ffl \u201cquoted\u201d a\u2013b',
    );
    expect(decodeCorkControls('plain text, tabs\tand all')).toBe('plain text, tabs\tand all');
  });
});
