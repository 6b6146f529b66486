import { describe, expect, it } from 'vitest';
import { cleanPassages, cleanText, rejoinHyphenated, repairMojibake } from './clean-text';

describe('cleanPassages: the text of every extractor, before cards are made', () => {
  it('rejoins words hyphenated across lines, and keeps hyphens that belong to the word', () => {
    expect(rejoinHyphenated('the manip-\nulation of lists')).toBe('the manipulation of lists');
    expect(rejoinHyphenated('eine bestimmte Zei‐\nchenkette')).toBe('eine bestimmte Zeichenkette');
    expect(rejoinHyphenated('The upstream-version is mandatory. The upstream-\nversion portion')).toBe(
      'The upstream-version is mandatory. The upstream-version portion',
    );
  });

  it('repairs UTF-8 that was decoded as windows-1252, and leaves correct text alone', () => {
    expect(repairMojibake('cafÃ© and donâ€™t')).toBe('café and don’t');
    expect(repairMojibake('Ã€ bientÃ´t')).toBe('À bientôt');
    expect(repairMojibake('café, naïve, Ærø')).toBe('café, naïve, Ærø');
  });

  it('drops running headers and footers repeated on the pages, and page numbers', () => {
    const page = (n: number, body: string) => ({
      text: `11/22/26, 4:10 PM Getting Started\n${body}\nfi le:///tmp/getting-started.html ${n}/3`,
      page: n,
    });
    expect(
      cleanPassages([
        page(1, 'Fastify is a web framework.'),
        page(2, 'Plugins load in order.'),
        { text: 'Chapter 1 Basics\nHooks run in order.\nPage 3 of 3', page: 3 },
      ]),
    ).toEqual([
      { text: 'Fastify is a web framework.', page: 1 },
      { text: 'Plugins load in order.', page: 2 },
      { text: 'Chapter 1 Basics\nHooks run in order.', page: 3 },
    ]);
  });

  it('keeps a paragraph repeated in the body of every page: only repetition at page edges is a running header', () => {
    const page = (n: number) => ({
      page: n,
      text: `Chapter 3. The Human Body\n\nThe heart has ${n + 1} chambers on page ${n}.\n\nRemember: the heart pumps blood.\n\nThe lungs fill with air on page ${n}.\n\n${n}`,
    });
    expect(cleanPassages([page(1), page(2), page(3)])).toEqual(
      [1, 2, 3].map((n) => ({
        page: n,
        text: `The heart has ${n + 1} chambers on page ${n}.\n\nRemember: the heart pumps blood.\n\nThe lungs fill with air on page ${n}.`,
      })),
    );
  });

  it('drops a man page’s header and footer lines', () => {
    expect(
      cleanText(
        'APROPOS(1)  Dienstprogramme für Handbuchseiten  APROPOS(1)\nNAME\napropos - sucht\n2.11.2 2023-02-05 APROPOS(1)',
      ),
    ).toBe('NAME\napropos - sucht');
  });

  it('keeps a sentence that starts with the word "copyright", and drops a notice', () => {
    expect(cleanText('copyright license to reproduce, prepare Derivative Works of, and distribute the Work.')).toBe(
      'copyright license to reproduce, prepare Derivative Works of, and distribute the Work.',
    );
    expect(cleanText('Copyright (c) The Authors\nCopyright 2021 Example Inc.\nText.')).toBe('Text.');
  });

  it('drops copyright and version boilerplate and tables of contents', () => {
    expect(
      cleanText(
        [
          'Copyright 2020 The Authors',
          'All rights reserved.',
          'Last updated 2 October 2018',
          'Version 3.1',
          'Table of Contents',
          'Installation',
          'Usage',
          '',
          'Introduction .......... 4',
          'A set is an unordered collection.',
        ].join('\n'),
      ),
    ).toBe('A set is an unordered collection.');
  });

  it('keeps the text of markdown and HTML, not its markup: badges, images, link targets, tags', () => {
    expect(
      cleanText(
        [
          '<h1 align="center">Fastify</h1>',
          '[![npm version](https://img.shields.io/npm/v/x.svg)](https://www.npmjs.com/package/x)',
          '<a id="install"></a>',
          'Read the [plugins guide](./Plugins.md) first. ![Figure](fig.svg)',
          '> **Note** listen on 0.0.0.0',
          '[bearer]: https://github.com/fastify/fastify-bearer-auth',
          '[Introduction](./README.md) | [简体中文](./README_CN.md) | [はじめに](./README_JA.md)',
        ].join('\n'),
      ),
    ).toBe('Fastify\n\nRead the plugins guide first.\nNote listen on 0.0.0.0');
  });

  it('keeps URLs and formulas whole', () => {
    const text = 'See https://www.freedesktop.org/wiki/Specifications for details.\nThe area is $A = \\pi r^2$.';
    expect(cleanText(text)).toBe(text);
  });

  it('fences code and interactive prompts, so that they are never blanked or split into sentences', () => {
    expect(
      cleanText(
        [
          'Let us read a number:',
          '>>> x = int(input("Please enter an integer: "))',
          '>>> if x < 0:',
          '... x = 0',
          'Install it with npm:',
          'npm install ts-fsrs',
          'A scheduler is created like this:',
          'const scheduler = fsrs({',
          'request_retention: 0.9,',
          '})',
          'The else clause of a loop runs when the loop ends.',
        ].join('\n'),
      ),
    ).toBe(
      [
        'Let us read a number:',
        '```',
        '>>> x = int(input("Please enter an integer: "))',
        '>>> if x < 0:',
        '... x = 0',
        '```',
        'Install it with npm:',
        '```',
        'npm install ts-fsrs',
        '```',
        'A scheduler is created like this:',
        '```',
        'const scheduler = fsrs({',
        'request_retention: 0.9,',
        '})',
        '```',
        'The else clause of a loop runs when the loop ends.',
      ].join('\n'),
    );
  });

  it('keeps fenced code as it is', () => {
    expect(cleanText('Run:\n```js\nconst a = [1];  // Copyright\n```\nDone.')).toBe(
      'Run:\n```\nconst a = [1];  // Copyright\n```\nDone.',
    );
  });

  it('makes a sentence cut by a page break whole on the page where it starts', () => {
    expect(
      cleanPassages([
        { text: 'This format represents the case where software was written to be turned into a', page: 1 },
        { text: 'Debian package, and so no revision is required.\nNotes follow.', page: 2 },
      ]),
    ).toEqual([
      {
        text: 'This format represents the case where software was written to be turned into a',
        page: 1,
      },
      { text: 'Debian package, and so no revision is required.\nNotes follow.', page: 2 },
    ]);
    expect(
      cleanPassages([
        { text: 'The debian-revision is compared in the same way as the', page: 1 },
        { text: 'upstream-version is.\nNotes follow.', page: 2 },
      ]),
    ).toEqual([
      { text: 'The debian-revision is compared in the same way as the\nupstream-version is.', page: 1 },
      { text: 'Notes follow.', page: 2 },
    ]);
  });

  it('drops passages that were nothing but debris, and is idempotent', () => {
    expect(
      cleanPassages([
        { text: '12', page: 1 },
        { text: '© 2024 ACME', page: 2 },
      ]),
    ).toEqual([]);
    const once = cleanPassages([{ text: 'manip-\nulation is hard.\n>>> x = 1', page: 1 }]);
    expect(cleanPassages(once)).toEqual(once);
  });
});
