import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { ankiFileName, buildAnkiCsv, markdownToBasicHtml, safeUrl } from './anki-export';

describe('Anki export', () => {
  it('makes a CSV of two columns, question and answer, one row per card, no header', () => {
    const csv = buildAnkiCsv([
      { question: 'What is 2 + 2?', answer: '4' },
      { question: 'Capital of France?', answer: 'Paris' },
    ]);
    expect(csv).toBe('What is 2 + 2?,4\r\nCapital of France?,Paris');
  });

  it('converts markdown to basic HTML and quotes fields that need it', () => {
    const csv = buildAnkiCsv([
      { question: 'What does **ATP** stand for?', answer: '- adenosine\n- triphosphate' },
      { question: 'Say "hi", then `code`', answer: '# Title\n\nText with *emphasis*' },
    ]);
    expect(csv).toBe(
      'What does <strong>ATP</strong> stand for?,"<ul>\n<li>adenosine</li>\n<li>triphosphate</li>\n</ul>"\r\n' +
        '"Say &quot;hi&quot;, then <code>code</code>","<h1>Title</h1>\n<p>Text with <em>emphasis</em></p>"',
    );
    const rows = Papa.parse<string[]>(csv).data;
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.length === 2)).toBe(true);
  });

  it('keeps a single paragraph unwrapped, shows raw HTML as text and empties unsafe link addresses', () => {
    expect(markdownToBasicHtml('Plain text')).toBe('Plain text');
    expect(markdownToBasicHtml('a <script>alert(1)</script> b')).toBe('a &lt;script&gt;alert(1)&lt;/script&gt; b');
    expect(markdownToBasicHtml('[ok](https://example.com) [bad](javascript:alert(1))')).toBe(
      '<a href="https://example.com">ok</a> <a href="">bad</a>',
    );
    expect(safeUrl('/relative/path')).toBe('/relative/path');
    expect(safeUrl('mailto:a@example.com')).toBe('mailto:a@example.com');
    expect(safeUrl('data:text/html,x')).toBe('');
  });

  it('names the file after the deck', () => {
    expect(ankiFileName('Cell biology')).toBe('Cell biology_Anki_Export.csv');
  });
});
