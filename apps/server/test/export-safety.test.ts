/**
 * The .apkg export under the web CSV export's rules (issue 30, audit turn 3 findings 2 and 6): raw HTML escaped,
 * link and image addresses through the scheme allow-list, and no quadratic regex. The audit's payloads go through
 * the real path (a shared deck imported by a victim, then exported), and each exported field is loaded in Chromium
 * the way Anki's reviewer shows it: no script may run and no unsafe address may be left.
 */
import { htmlToPlainText } from '@flashcards/shared/card-html';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldChecksum } from '../src/adapters/anki/apkg-writer';
import { markdownToAnkiHtml } from '../src/adapters/anki/markdown-to-html';
import { exportedNotes } from './support/apkg-fields';
import { signUpAndLogIn } from './support/factories';
import { createDeck, importShare, saveCards, shareDeck } from './support/study';
import { useTestApp } from './support/test-app';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

/** The audit's six (t-export-html.mjs), then variants: other schemes, encodings, tags and places. */
const payloads = [
  `<img src=x onerror="window.__pwned='img'">`,
  `[click](javascript:void(window.__pwned='link'))`,
  `<script>window.__pwned="script"</script>`,
  `[b](java&#115;cript:void(window.__pwned='entity'))`,
  `<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>`,
  `<a href="javascript:void(window.__pwned='rawlink')">raw</a>`,
  `[d](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0nZGF0YSc8L3NjcmlwdD4=)`,
  `[v](vbscript:msgbox(1))`,
  `[e](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;void(window.__pwned='decimal'))`,
  `[t](jav&#x09;ascript:void(window.__pwned='tab'))`,
  `[c](javascript&colon;void(window.__pwned='colon'))`,
  `[u](JaVaScRiPt:void(window.__pwned='case'))`,
  `![i](javascript:void(window.__pwned='image'))`,
  `<javascript:void(window.__pwned='autolink')>`,
  `<svg onload="window.__pwned='svg'"></svg>`,
  `<details open ontoggle="window.__pwned='details'">x</details>`,
  `<object data="javascript:window.__pwned='object'"></object>`,
  `<base href="javascript:void(window.__pwned='base')//"><a href="x">base</a>`,
  `<meta http-equiv="refresh" content="0;url=javascript:window.__pwned='meta'">`,
];

const unsafeAddress = /^\s*(javascript|data|vbscript):/i;

describe('markdownToAnkiHtml under the export rules', () => {
  it.each(payloads)('%s comes out as text or a link with a safe address', (payload) => {
    const { html } = markdownToAnkiHtml(payload);
    // The only tags left are the ones the markdown renderer writes itself.
    const tags = [...html.matchAll(/<([a-z0-9]+)[\s>]/gi)].map((match) => match[1]?.toLowerCase());
    expect(tags.every((tag) => tag === 'a' || tag === 'img' || tag === 'br' || tag === 'p')).toBe(true);
    for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      expect(match[1] ?? '').not.toMatch(unsafeAddress);
      expect(match[1] ?? '').not.toMatch(/&#|&colon;/i);
    }
    expect(html).not.toMatch(/<[a-z][^<>]*\son[a-z]+\s*=/i);
  });

  it('keeps safe links, math and stored images as before', () => {
    expect(markdownToAnkiHtml('[ok](https://example.com/?a=1&b=2) and <b>bold</b>').html).toBe(
      '<a href="https://example.com/?a=1&amp;b=2">ok</a> and &lt;b&gt;bold&lt;/b&gt;',
    );
    expect(markdownToAnkiHtml('Use $a<b$ and ![](/media/0123abcd.png)')).toEqual({
      html: 'Use \\(a&lt;b\\) and <img src="0123abcd.png" alt="">',
      media: ['0123abcd.png'],
    });
  });

  it("strips tags for Anki's sort field in one pass, with the old rules' results", () => {
    const hostile = `<div>${'<'.repeat(19_990)}`;
    expect(htmlToPlainText(hostile)).toBe('<'.repeat(19_990));
    expect(htmlToPlainText('a<b>b</b><script>x<y</script>c<style>p{}</style>d&nbsp;e<f')).toBe('abcd e<f');
    expect(htmlToPlainText('<a <b>x')).toBe('x');
    expect(fieldChecksum('<b>Paris</b>')).toBe(fieldChecksum('Paris'));
  });
});

describe('GET /decks/{id}/export.apkg with hostile cards', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  let context: BrowserContext;
  let ran: string[] = [];
  let served = '';
  beforeAll(async () => {
    context = await browser.newContext({ javaScriptEnabled: true });
    await context.exposeBinding('__report', (_source, value: string) => {
      ran.push(String(value));
    });
    await context.route('http://card.test/**', (route) => route.fulfill({ contentType: 'text/html', body: served }));
  });

  /**
   * The page Anki's reviewer would make of a field: the field's HTML in a card, with script on. The harness reports
   * any write to `__pwned` (from the page or a frame of it) and any alert, and keeps links other than `javascript:`
   * from navigating, so each can be clicked.
   */
  const harness = `<script>
    const report = (value) => window.__report(String(value));
    Object.defineProperty(window, '__pwned', { set: report, get: () => undefined, configurable: false });
    window.alert = report;
    window.addEventListener('click', (event) => {
      const link = event.target.closest && event.target.closest('a');
      if (link && !/^javascript:/i.test(link.href)) event.preventDefault();
    }, true);
  </script>`;

  /** Loads the field, clicks every link, and reports what ran and every unsafe address the browser resolved. */
  async function scriptsRun(html: string): Promise<{ ran: string[]; unsafe: string[] }> {
    ran = [];
    served = `<!doctype html><html><head>${harness}</head><body><div class="card">${html}</div></body></html>`;
    const page = await context.newPage();
    await page.goto('http://card.test/', { waitUntil: 'load' });
    // The addresses as the browser resolved them (references decoded, tabs and newlines dropped).
    const unsafe = await page.evaluate<string[]>(`
      [...document.querySelectorAll('a, area, img, iframe, embed, object, form, base')].flatMap((element) =>
        [element.href, element.src, element.data, element.action].flatMap((value) =>
          typeof value === 'string' && /^(javascript|data|vbscript):/i.test(value) ? [value] : [],
        ),
      )
    `);
    for (const link of await page.$$('a')) await link.click({ noWaitAfter: true });
    // A macrotask: a javascript: address runs in the task after its click.
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 50))');
    await page.close();
    return { ran, unsafe };
  }

  it("a shared deck's payloads reach the victim's export as inert text and safe links (the audit's t-export-html)", async () => {
    const attacker = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, attacker.headers, 'Innocent deck');
    await saveCards(
      ctx.app,
      attacker.headers,
      deck._id,
      payloads.map((payload, index) => ({ question: payload, answer: `${payloads.at(-1 - index)}` })),
    );
    const shareCode = await shareDeck(ctx.app, attacker.headers, deck._id);
    const victim = await signUpAndLogIn(ctx.app);
    const copy = await importShare(ctx.app, victim.headers, shareCode);
    expect(copy.statusCode).toBe(201);

    const response = await ctx.app.inject({
      method: 'GET',
      url: `/decks/${copy.json<{ _id: string }>()._id}/export.apkg`,
      headers: victim.headers,
    });
    expect(response.statusCode).toBe(200);
    const notes = await exportedNotes(response.rawPayload);
    expect(notes).toHaveLength(payloads.length);
    for (const note of notes) {
      for (const field of note.fields) {
        expect(await scriptsRun(field), field).toEqual({ ran: [], unsafe: [] });
      }
    }
    // The raw HTML is still there for the learner to read, as text.
    expect(notes[2]?.fields[0]).toBe('&lt;script&gt;window.__pwned=&quot;script&quot;&lt;/script&gt;');
  }, 120_000);

  it('the harness does catch a live payload (the test can fail)', async () => {
    expect(await scriptsRun(payloads[0] ?? '')).toEqual({ ran: ['img'], unsafe: [] });
    expect(await scriptsRun(`<a href="jav&#x09;ascript:void(window.__pwned='x')">x</a>`)).toEqual({
      ran: ['x'],
      unsafe: ["javascript:void(window.__pwned='x')"],
    });
  });

  it("exports the audit's quadratic-regex cards (t-export-redos: `<div>` and 19,990 `<`) with their text intact", async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, headers, 'Angles');
    const question = `<div>${'<'.repeat(19_990)}`;
    await saveCards(
      ctx.app,
      headers,
      deck._id,
      Array.from({ length: 25 }, (_, index) => ({ question, answer: `answer ${index}` })),
    );
    const response = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}/export.apkg`, headers });
    expect(response.statusCode).toBe(200);
    const notes = await exportedNotes(response.rawPayload);
    expect(notes).toHaveLength(25);
    expect(notes[0]?.fields[0]).toBe(`&lt;div&gt;${'&lt;'.repeat(19_990)}`);
    expect(notes[0]?.sfld).toBe(`&lt;div&gt;${'&lt;'.repeat(19_990)}`);
  });
});
