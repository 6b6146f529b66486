import { describe, expect, it } from 'vitest';
import { ankiFraction, imageSource, occlusionField, parseOcclusionField } from './image-occlusion';

const limits = { maxMasks: 100, maxGroup: 100 };

describe("Anki's Image Occlusion cloze syntax", () => {
  it('reads rectangles, ellipses (radii to a box) and cloze numbers as groups; no oi is hide one', () => {
    const field =
      '{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1}}<br>' +
      '{{c3::image-occlusion:ellipse:left=.5:top=.4:rx=.1:ry=.05}}<br>' +
      '{{c3::image-occlusion:rect:left=.0000:top=.9:width=.05:height=.1}}<br>';
    expect(parseOcclusionField(field, limits)).toEqual({
      masks: [
        { x: 0.1, y: 0.2, w: 0.3, h: 0.1, group: 1 },
        { x: 0.5, y: 0.4, w: 0.2, h: 0.1, group: 3, shape: 'ellipse' },
        { x: 0, y: 0.9, w: 0.05, h: 0.1, group: 3 },
      ],
      mode: 'hide_one',
      polygons: 0,
      invalid: 0,
      tooMany: false,
    });
  });

  it('takes oi=1 as hide all, a polygon as the box of its points at left/top, and leaves text labels out', () => {
    const field =
      '{{c1::image-occlusion:polygon:left=.2:top=.3:points=.2,.3 .5,.35 .4,.6:oi=1}}<br>' +
      '{{c0::image-occlusion:text:left=.1:top=.1:text=Aorta\\: the main artery:scale=1:fs=.05}}<br>' +
      '{{c2::image-occlusion:rect:left=.6:top=.6:width=.1:height=.1:oi=1}}<br>';
    const parsed = parseOcclusionField(field, limits);
    expect(parsed.mode).toBe('hide_all');
    expect(parsed.polygons).toBe(1);
    expect(parsed.invalid).toBe(0);
    expect(parsed.masks).toEqual([
      { x: 0.2, y: 0.3, w: 0.3, h: 0.3, group: 1 },
      { x: 0.6, y: 0.6, w: 0.1, h: 0.1, group: 2 },
    ]);
  });

  it('unescapes \\: and \\\\ in values, and clamps a shape overshooting the image', () => {
    const field = '{{c1::image-occlusion:rect:left=.9:top=.95:width=.2:height=.1:fill=#ff\\:00}}';
    expect(parseOcclusionField(field, limits).masks).toEqual([{ x: 0.9, y: 0.95, w: 0.1, h: 0.05, group: 1 }]);
  });

  it('leaves out malformed shapes (no position, unknown kind, NaN, zero size, number 0 or past the limit)', () => {
    const field = [
      '{{c1::image-occlusion:rect:left=abc:top=.2:width=.3:height=.1}}',
      '{{c1::image-occlusion:star:left=.1:top=.2}}',
      '{{c1::image-occlusion:rect:top=.2:width=.3:height=.1}}',
      '{{c1::image-occlusion:rect:left=.1:top=.2:width=0:height=.1}}',
      '{{c101::image-occlusion:rect:left=.1:top=.2:width=.1:height=.1}}',
      '{{c1::image-occlusion:polygon:left=.1:top=.1:points=.1,.1 .2,.2}}',
      '{{c2::image-occlusion:rect:left=.1:top=.2:width=.1:height=.1}}',
      '{{c3::image-occlusion:rect:left=.1:top=.2:width=.1',
    ].join('<br>');
    const parsed = parseOcclusionField(field, limits);
    expect(parsed.masks).toEqual([{ x: 0.1, y: 0.2, w: 0.1, h: 0.1, group: 2 }]);
    expect(parsed.invalid).toBe(7);
    expect(parseOcclusionField('no clozes at all {{c1::plain}}', limits).masks).toEqual([]);
  });

  it('stops reading past the mask limit (10,000 shapes)', () => {
    const field = '{{c1::image-occlusion:rect:left=.1:top=.1:width=.1:height=.1}}<br>'.repeat(10_000);
    const parsed = parseOcclusionField(field, limits);
    expect(parsed.tooMany).toBe(true);
    expect(parsed.masks).toHaveLength(100);
  });

  it('writes what it reads: fractions as Anki writes them (4 decimals, no leading zero)', () => {
    expect(ankiFraction(0)).toBe('.0000');
    expect(ankiFraction(0.25)).toBe('.25');
    expect(ankiFraction(1)).toBe('1.');
    expect(ankiFraction(0.123456)).toBe('.1235');
    const masks = [
      { x: 0.1, y: 0.2, w: 0.3, h: 0.1, group: 1 },
      { x: 0.5, y: 0.4, w: 0.2, h: 0.1, group: 2, shape: 'ellipse' as const },
    ];
    const field = occlusionField(masks, 'hide_one');
    expect(field).toBe(
      '{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1}}<br>' +
        '{{c2::image-occlusion:ellipse:left=.5:top=.4:rx=.1:ry=.05}}<br>',
    );
    expect(parseOcclusionField(field, limits)).toMatchObject({ masks, mode: 'hide_one' });
    expect(parseOcclusionField(occlusionField(masks, 'hide_all'), limits).mode).toBe('hide_all');
  });

  it("finds the Image field's picture as Anki does (the first <img src>)", () => {
    expect(imageSource('<img src="heart diagram.png">')).toBe('heart diagram.png');
    expect(imageSource("<div><img alt='x' src='a.jpg'></div>")).toBe('a.jpg');
    expect(imageSource('<IMG SRC=b.webp>')).toBe('b.webp');
    expect(imageSource('no image')).toBeNull();
  });
});
