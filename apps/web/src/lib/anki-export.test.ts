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

  it("adds a card's images to its answer as <img> tags with this site's address, and only /media/ ones", () => {
    const csv = buildAnkiCsv(
      [
        { question: 'Which organ?', answer: 'The heart', images: ['/media/ab12.png', '/media/cd34.jpg'] },
        { question: 'Only a picture', answer: '', images: ['/media/ef56.webp', 'javascript:alert(1)'] },
        { question: 'No picture', answer: 'Text', images: [] },
      ],
      'https://cards.example',
    );
    expect(Papa.parse<string[]>(csv).data).toEqual([
      [
        'Which organ?',
        'The heart<br><img src="https://cards.example/media/ab12.png"><img src="https://cards.example/media/cd34.jpg">',
      ],
      ['Only a picture', '<img src="https://cards.example/media/ef56.webp">'],
      ['No picture', 'Text'],
    ]);
  });

  it('names the file after the deck', () => {
    expect(ankiFileName('Cell biology')).toBe('Cell biology_Anki_Export.csv');
  });
});

describe('Anki export against the audit payloads (findings 6 and 16)', () => {
  it.each([
    '[a](java&#115;cript:alert(1))',
    '[a](&#x6A;avascript:alert(1))',
    '[a](javascript&colon;alert(1))',
    '[a](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1))',
    '[a](data&colon;text/html,x)',
    '[a](jav&#x09;ascript:alert(1))',
    '[a](&amp;#106;avascript:alert(1))',
    '![i](java&#115;cript:alert(1))',
  ])('%s exports no live script address', (text) => {
    const html = markdownToBasicHtml(text);
    // What an HTML reader (Anki's webview, a browser) would see as the address.
    const document = new DOMParser().parseFromString(html, 'text/html');
    const element = document.querySelector('a, img');
    const address = element?.getAttribute('href') ?? element?.getAttribute('src') ?? '';
    const visible = [...address].filter((char) => char.charCodeAt(0) > 0x20).join('');
    expect(visible.toLowerCase()).not.toMatch(/^(javascript|data|vbscript):/);
  });

  it('keeps safe addresses working, with & escaped in the attribute', () => {
    expect(markdownToBasicHtml('[q](https://example.com/?a=1&b=2)')).toBe(
      '<a href="https://example.com/?a=1&amp;b=2">q</a>',
    );
  });

  it.each(['=1+1', '@SUM(1+1)', '+SUM(1,1)', '-1+cmd|calc', '=WEBSERVICE(CONCAT(CHAR(104),CHAR(116)))'])(
    'neutralises the spreadsheet formula %s',
    (text) => {
      const csv = buildAnkiCsv([{ question: text, answer: text }]);
      const [row] = Papa.parse<string[]>(csv).data;
      for (const cell of row ?? []) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      expect(row?.[0]?.startsWith('<span></span>')).toBe(true);
    },
  );
});
