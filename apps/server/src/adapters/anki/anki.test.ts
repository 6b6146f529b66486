import { describe, expect, it } from 'vitest';
import { rawZstd } from '../../../test/support/anki-packages';
import { createHtmlToMarkdown } from './html-to-markdown';
import { markdownToAnkiHtml } from './markdown-to-html';
import { readMessage } from './protobuf';
import { fieldIsEmpty, renderCard, renderTemplate, revealCloze } from './template';
import { OutputTooLargeError, zstdDecompress } from './zstd';

const fields = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('Anki templates', () => {
  it('fills fields and shows sections by whether a field is empty (Anki: whitespace, <br> and <div> are empty)', () => {
    const template = '{{Word}}{{#Note}} ({{Note}}){{/Note}}{{^Note}} (none){{/Note}}{{#Missing}}x{{/Missing}}';
    expect(renderTemplate(template, { fields: fields({ Word: 'cat', Note: 'pet' }), cardOrd: 0, question: true })).toBe(
      'cat (pet)',
    );
    expect(
      renderTemplate(template, {
        fields: fields({ Word: 'cat', Note: ' <br> <div></div>' }),
        cardOrd: 0,
        question: true,
      }),
    ).toBe('cat (none)');
    expect(fieldIsEmpty('&nbsp;<br/>')).toBe(true);
    expect(fieldIsEmpty('<img src="a.png">')).toBe(false);
  });

  it('applies filters right to left: text:, hint:, type:, furigana:, kana:, kanji:', () => {
    const note = fields({ F: '<b>日本[にほん]</b>', H: 'a hint' });
    const q = (template: string) => renderTemplate(template, { fields: note, cardOrd: 0, question: true });
    const a = (template: string) => renderTemplate(template, { fields: note, cardOrd: 0, question: false });
    expect(q('{{text:F}}')).toBe('日本[にほん]');
    expect(q('{{furigana:F}}')).toBe('<b>日本(にほん)</b>');
    expect(q('{{kana:F}}')).toBe('<b>にほん</b>');
    expect(q('{{text:kanji:F}}')).toBe('日本');
    expect(q('{{hint:H}}')).toBe('a hint');
    expect(q('[{{type:H}}]')).toBe('[]');
    expect(a('{{type:H}}')).toBe('a hint');
    expect(q('{{tts en_US:H}}')).toBe('');
  });

  it('reveals clozes: the card’s own as [...] or [hint] on the question, in bold on the answer; nested ones too', () => {
    const text = '{{c1::Paris}} is in {{c2::France::country}}; {{c1::Lyon}} too. {{c3::outer {{c4::inner}} text}}';
    expect(revealCloze(text, 1, true)).toBe('[...] is in France; [...] too. outer inner text');
    expect(revealCloze(text, 2, true)).toBe('Paris is in [country]; Lyon too. outer inner text');
    expect(revealCloze(text, 2, false)).toBe('Paris is in <b>France</b>; Lyon too. outer inner text');
    expect(revealCloze(text, 3, true)).toBe('Paris is in France; Lyon too. [...]');
    expect(revealCloze(text, 4, true)).toBe('Paris is in France; Lyon too. outer [...] text');
    expect(revealCloze(text, 3, false)).toBe('Paris is in France; Lyon too. <b>outer inner text</b>');
  });

  it('keeps only what follows <hr id=answer> as the answer, and renders {{FrontSide}} otherwise', () => {
    const note = fields({ Front: 'Q', Back: 'A' });
    expect(renderCard({ qfmt: '{{Front}}', afmt: '{{FrontSide}}<hr id="answer">{{Back}}' }, note, 0)).toEqual({
      question: 'Q',
      answer: 'A',
    });
    expect(renderCard({ qfmt: '{{Front}}', afmt: '{{FrontSide}} / {{Back}}' }, note, 0)).toEqual({
      question: 'Q',
      answer: 'Q / A',
    });
  });

  it('survives broken templates: an unclosed section shows its content, a stray close is ignored', () => {
    const note = fields({ A: 'x' });
    expect(renderTemplate('{{#A}}in {{A}}', { fields: note, cardOrd: 0, question: true })).toBe('in x');
    expect(renderTemplate('a{{/A}}b{{', { fields: note, cardOrd: 0, question: true })).toBe('ab{{');
  });
});

describe('HTML to markdown and back', () => {
  const toMarkdown = createHtmlToMarkdown((src) => (src === 'known.png' ? '/media/abc.png' : null));

  it('converts HTML, math, images and lists; drops sounds and counts them', () => {
    const result = toMarkdown(
      '<div>Area: \\(\\pi r^2 &lt; 4\\)</div><ol><li>one</li><li>two</li></ol><img src="known.png"><img src="gone.png">[sound:a.mp3]<audio src="b.ogg"></audio>',
    );
    expect(result.markdown).toBe('Area: $\\pi r^2 < 4$\n\n1. one\n2. two\n\n![](/media/abc.png)');
    expect(result.notes).toEqual({ sounds: 2, missingImages: 1 });
  });

  it('escapes markdown and a literal $ in plain text, keeping a cloze blank readable', () => {
    expect(toMarkdown('costs $5 *now* [...]').markdown).toBe('costs \\$5 \\*now\\* [...]');
    expect(toMarkdown('[link](x)').markdown).toBe('[link\\](x)');
  });

  it('turns markdown into Anki HTML with MathJax delimiters and package media names', () => {
    expect(markdownToAnkiHtml('Use $a<b$ and $$\\sum x$$ ![](/media/0123abcd.png)')).toEqual({
      html: 'Use \\(a&lt;b\\) and \\[\\sum x\\] <img src="0123abcd.png" alt="">',
      media: ['0123abcd.png'],
    });
  });
});

describe('package pieces', () => {
  it('stops inflating zstd at the cap', () => {
    const data = rawZstd(Buffer.alloc(300_000, 1));
    expect(zstdDecompress(data, 300_000).length).toBe(300_000);
    expect(() => zstdDecompress(data, 200_000)).toThrow(OutputTooLargeError);
  });

  it('refuses truncated protobuf', () => {
    expect(() => readMessage(Uint8Array.from([0x0a, 0x05, 0x61]))).toThrow('truncated protobuf field');
    expect(() => readMessage(Uint8Array.from([0x08, 0x80]))).toThrow('truncated protobuf varint');
  });
});
