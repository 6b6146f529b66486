import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OcclusionMask } from '@flashcards/shared/notes';
import { afterAll, describe, expect, it } from 'vitest';
import { basic, cloze, pngBytes, reversed, vocabulary } from '../../../test/support/anki-packages';
import { mediaName, parseImport } from '../../modules/interop/import-parser';
import { type ApkgNote, stockNotetypes, writeApkg } from './apkg-writer';
import { imageField, occlusionField } from './image-occlusion';
import { notetypeShape } from './note-shapes';

const dir = mkdtempSync(path.join(os.tmpdir(), 'note-types-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixture = (name: string) => path.join(import.meta.dirname, '../../../test/fixtures/anki-packages', name);

async function parseFile(filePath: string) {
  return parseImport({
    filePath,
    kind: 'apkg',
    defaultDeckName: 'Import',
    mediaSecret: 'secret',
    maxUnzippedBytes: 50_000_000,
    maxCards: 100_000,
    maxImageBytes: 1_000_000,
    maxImagePixels: 10_000_000,
  });
}

describe('Anki note types recognised by their structure', () => {
  it('knows the stock shapes under any name (names are localised) and wrapped in HTML', () => {
    expect(notetypeShape({ ...basic, name: 'Einfach', cloze: false })).toEqual({ kind: 'basic', front: 0, back: 1 });
    expect(notetypeShape({ ...reversed, name: 'Básico (y tarjeta invertida)', cloze: false })).toEqual({
      kind: 'reversed',
      front: 0,
      back: 1,
    });
    expect(notetypeShape({ ...cloze, name: 'Texte à trous', cloze: true })).toEqual({
      kind: 'cloze',
      text: 0,
      extra: [1],
    });
    const wrapped = {
      name: 'Mine',
      cloze: false,
      fields: ['Vorderseite', 'Rückseite'],
      templates: [
        {
          name: 'Karte 1',
          qfmt: '<div>{{Vorderseite}}</div>',
          afmt: '{{FrontSide}}<hr id=answer><b>{{Rückseite}}</b>',
        },
      ],
    };
    expect(notetypeShape(wrapped)).toEqual({ kind: 'basic', front: 0, back: 1 });
    const optional = {
      name: 'Basique (carte inversée optionnelle)',
      cloze: false,
      fields: ['Recto', 'Verso', 'Ajouter inverse'],
      templates: [
        { name: 'Carte 1', qfmt: '{{Recto}}', afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Verso}}' },
        {
          name: 'Carte 2',
          qfmt: '{{#Ajouter inverse}}{{Verso}}{{/Ajouter inverse}}',
          afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Recto}}',
        },
      ],
    };
    expect(notetypeShape(optional)).toEqual({ kind: 'optionalReversed', front: 0, back: 1, addReverse: 2 });
  });

  it('leaves other note types to be rendered from their templates', () => {
    expect(notetypeShape({ ...vocabulary, cloze: false })).toEqual({ kind: 'other' });
    const prompt = {
      name: 'Basic',
      cloze: false,
      fields: ['Front', 'Back'],
      templates: [{ name: 'Card 1', qfmt: 'Translate: {{Front}}', afmt: '{{FrontSide}}<hr id=answer>{{Back}}' }],
    };
    expect(notetypeShape(prompt)).toEqual({ kind: 'other' });
    const twoClozes = {
      name: 'Cloze',
      cloze: true,
      fields: ['Text', 'Text2'],
      templates: [{ name: 'Cloze', qfmt: '{{cloze:Text}}{{cloze:Text2}}', afmt: '{{cloze:Text}}' }],
    };
    expect(notetypeShape(twoClozes)).toEqual({ kind: 'other' });
    const imageOcclusion = {
      name: 'Image Occlusion',
      cloze: true,
      fields: ['Occlusion', 'Image', 'Header', 'Back Extra', 'Comments'],
      templates: [
        {
          name: 'Image Occlusion',
          qfmt: '{{#Header}}<div>{{Header}}</div>{{/Header}}\n<div style="display: none">{{cloze:Occlusion}}</div>\n<div id="image-occlusion-container">\n    {{Image}}\n    <canvas id="image-occlusion-canvas"></canvas>\n</div>',
          afmt: '{{FrontSide}}\n{{#Back Extra}}<div>{{Back Extra}}</div>{{/Back Extra}}',
        },
      ],
    };
    // Anki's Image Occlusion is recognised by its template (untagged fields: the stock order).
    expect(notetypeShape(imageOcclusion)).toEqual({
      kind: 'occlusion',
      occlusions: 0,
      image: 1,
      header: 2,
      backExtra: 3,
    });
  });

  it('reads packages Anki wrote: stock Basic notes, and a Basic-shaped type named "testt"', async () => {
    for (const name of ['diffmodels2-1.apkg', 'update1.apkg', 'diffmodeltemplates-1.apkg']) {
      const parsed = await parseFile(fixture(name));
      expect(parsed.notes.map((note) => note.content.type)).toEqual(['basic']);
    }
    const custom = await parseFile(fixture('diffmodeltemplates-1.apkg'));
    expect(custom.notes[0]?.content).toEqual({ type: 'basic', fields: { front: 'question?', back: 'answer!' } });
  });
});

/** What Python's sqlite3 reads from an exported package, as Anki reads a schema 11 collection. */
function readWithPython(apkg: string) {
  const script = `
import json, sqlite3, sys, zipfile, tempfile, os
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
fd, db_path = tempfile.mkstemp()
os.write(fd, z.read('collection.anki2')); os.close(fd)
db = sqlite3.connect(db_path)
ver, models, decks = db.execute('select ver, models, decks from col').fetchone()
models = json.loads(models)
out = {'names': sorted(names), 'media': json.loads(z.read('media')), 'ver': ver, 'models': {}, 'notes': [], 'decks': sorted(d['name'] for d in json.loads(decks).values())}
for mid, m in models.items():
    assert str(m['id']) == mid
    out['models'][m['name']] = {'type': m['type'], 'fields': [f['name'] for f in sorted(m['flds'], key=lambda f: f['ord'])],
        'templates': [[t['ord'], t['qfmt'], t['afmt']] for t in m['tmpls']], 'stock': m.get('originalStockKind')}
    if any('tag' in f for f in m['flds']):
        out['models'][m['name']]['tags'] = [f['tag'] for f in sorted(m['flds'], key=lambda f: f['ord'])]
names_by_id = {int(mid): m['name'] for mid, m in models.items()}
for nid, guid, mid, flds in db.execute('select id, guid, mid, flds from notes order by id'):
    ords = [r[0] for r in db.execute('select ord from cards where nid = ? order by ord', (nid,))]
    out['notes'].append({'guid': guid, 'model': names_by_id[mid], 'fields': flds.split('\\x1f'), 'ords': ords})
os.remove(db_path)
print(json.dumps(out))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, apkg], { encoding: 'utf8' })) as {
    names: string[];
    media: Record<string, string>;
    ver: number;
    decks: string[];
    models: Record<
      string,
      { type: number; fields: string[]; tags?: number[]; templates: [number, string, string][]; stock: number }
    >;
    notes: { guid: string; model: string; fields: string[]; ords: number[] }[];
  };
}

describe('.apkg export with note types', () => {
  const masks: OcclusionMask[] = [
    { x: 0.1, y: 0.2, w: 0.3, h: 0.1, group: 1 },
    { x: 0.5, y: 0.5, w: 0.2, h: 0.4, group: 2, shape: 'ellipse' },
    { x: 0.05, y: 0.7, w: 0.1, h: 0.1, group: 2 },
  ];
  const notes: ApkgNote[] = [
    {
      guid: 'fcbasic',
      type: 'basic',
      fields: ['What is <b>H2O</b>?', 'Water'],
      ords: [0],
      createdAt: 1_700_000_000_000,
    },
    {
      guid: 'fcrev',
      type: 'reversed',
      fields: ['Paris', 'Capital of France'],
      ords: [0, 1],
      createdAt: 1_700_000_000_001,
    },
    {
      guid: 'fccloze',
      type: 'cloze',
      fields: ['{{c1::Mitochondria}} is the {{c3::powerhouse::what?}} of the \\(cell\\)', 'Biology'],
      ords: [0, 2],
      createdAt: 1_700_000_000_002,
    },
    {
      guid: 'fcio',
      type: 'occlusion',
      fields: [occlusionField(masks, 'hide_all'), imageField('heart.png'), 'The <b>heart</b>', 'Four chambers', ''],
      ords: [0, 1],
      createdAt: 1_700_000_000_003,
    },
  ];

  async function exported(): Promise<string> {
    const body = await writeApkg({
      deckName: 'Biology::Cells',
      pages: (async function* () {
        yield notes;
      })(),
      media: async () => [{ name: 'heart.png', data: pngBytes }],
      now: 1_750_000_000_000,
    });
    const file = path.join(dir, `export-${Math.random().toString(36).slice(2)}.apkg`);
    writeFileSync(file, body);
    return file;
  }

  it("writes Anki's stock note types, each note's fields joined by 0x1f, and cards by ordinal (read by Python)", async () => {
    const read = readWithPython(await exported());
    expect(read.names).toEqual(['0', 'collection.anki2', 'media']);
    expect(read.media).toEqual({ '0': 'heart.png' });
    expect(read.ver).toBe(11);
    expect(read.decks).toEqual(['Biology::Cells', 'Default']);
    expect(read.models).toEqual({
      Basic: {
        type: 0,
        fields: ['Front', 'Back'],
        templates: [[0, '{{Front}}', '{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}']],
        stock: 1,
      },
      'Basic (and reversed card)': {
        type: 0,
        fields: ['Front', 'Back'],
        templates: [
          [0, '{{Front}}', '{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}'],
          [1, '{{Back}}', '{{FrontSide}}\n\n<hr id=answer>\n\n{{Front}}'],
        ],
        stock: 2,
      },
      Cloze: {
        type: 1,
        fields: ['Text', 'Back Extra'],
        templates: [[0, '{{cloze:Text}}', '{{cloze:Text}}<br>\n{{Back Extra}}']],
        stock: 5,
      },
      'Image Occlusion': {
        type: 1,
        fields: ['Occlusion', 'Image', 'Header', 'Back Extra', 'Comments'],
        tags: [0, 1, 2, 3, 4],
        templates: [[0, stockNotetypes.occlusion.templates[0]?.qfmt, stockNotetypes.occlusion.templates[0]?.afmt]],
        stock: 6,
      },
    });
    expect(read.models['Image Occlusion']?.templates[0]?.[1]).toContain('{{cloze:Occlusion}}');
    expect(read.models['Image Occlusion']?.templates[0]?.[1]).toContain('<canvas id="image-occlusion-canvas">');
    expect(read.notes).toEqual([
      { guid: 'fcbasic', model: 'Basic', fields: ['What is <b>H2O</b>?', 'Water'], ords: [0] },
      { guid: 'fcrev', model: 'Basic (and reversed card)', fields: ['Paris', 'Capital of France'], ords: [0, 1] },
      {
        guid: 'fccloze',
        model: 'Cloze',
        fields: ['{{c1::Mitochondria}} is the {{c3::powerhouse::what?}} of the \\(cell\\)', 'Biology'],
        ords: [0, 2],
      },
      {
        guid: 'fcio',
        model: 'Image Occlusion',
        fields: [
          '{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:oi=1}}<br>' +
            '{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.2:oi=1}}<br>' +
            '{{c2::image-occlusion:rect:left=.05:top=.7:width=.1:height=.1:oi=1}}<br>',
          '<img src="heart.png">',
          'The <b>heart</b>',
          'Four chambers',
          '',
        ],
        ords: [0, 1],
      },
    ]);
    expect(Object.keys(stockNotetypes)).toEqual(['basic', 'reversed', 'cloze', 'occlusion']);
  });

  it('round-trips through the import: every type and cloze number kept', async () => {
    const parsed = await parseFile(await exported());
    expect(parsed.skipped).toBe(0);
    expect(parsed.notes.slice(0, 3).map((note) => [note.deck, note.guid, note.content])).toEqual([
      ['Biology::Cells', 'fcbasic', { type: 'basic', fields: { front: 'What is **H2O**?', back: 'Water' } }],
      ['Biology::Cells', 'fcrev', { type: 'reversed', fields: { front: 'Paris', back: 'Capital of France' } }],
      [
        'Biology::Cells',
        'fccloze',
        {
          type: 'cloze',
          fields: { text: '{{c1::Mitochondria}} is the {{c3::powerhouse::what?}} of the $cell$', extra: 'Biology' },
        },
      ],
    ]);
    expect(parsed.notes.slice(0, 3).map((note) => note.cards.map((card) => [card.card_type, card.ord]))).toEqual([
      [['basic', 0]],
      [
        ['basic', 0],
        ['reverse', 1],
      ],
      [
        ['cloze', 0],
        ['cloze', 2],
      ],
    ]);
    expect(parsed.notes[2]?.cards[1]?.question).toBe('Mitochondria is the [what?] of the $cell$');
    const image = mediaName('secret', createHash('sha256').update(pngBytes).digest('hex'), 'png');
    expect(parsed.notes[3]).toMatchObject({
      deck: 'Biology::Cells',
      guid: 'fcio',
      content: {
        type: 'occlusion',
        fields: { image, masks, mode: 'hide_all', header: 'The **heart**', back_extra: 'Four chambers' },
      },
      media: [image],
    });
    expect(parsed.notes[3]?.cards.map((card) => [card.card_type, card.ord])).toEqual([
      ['occlusion', 0],
      ['occlusion', 1],
    ]);
    expect(parsed.media.map((media) => media.name)).toEqual([image]);
  });

  it('keeps a 0x1f typed into a field from splitting the note', async () => {
    const body = await writeApkg({
      deckName: 'D',
      pages: (async function* () {
        yield [{ guid: 'g', type: 'basic', fields: ['a\x1fb', 'c'], ords: [0], createdAt: 1 } satisfies ApkgNote];
      })(),
      media: async () => [{ name: 'heart.png', data: pngBytes }],
      now: 1_750_000_000_000,
    });
    const file = path.join(dir, 'sep.apkg');
    writeFileSync(file, body);
    expect(readWithPython(file).notes[0]?.fields).toEqual(['ab', 'c']);
  });
});
