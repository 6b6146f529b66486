import { messages } from '@flashcards/shared/messages';
import type { OcclusionView } from '@flashcards/shared/notes';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OcclusionImage } from './occlusion-image';

const view = (mode: OcclusionView['mode']): OcclusionView => ({
  image_url: '/media/abc.png',
  mode,
  masks: [
    { x: 0.1, y: 0.2, w: 0.3, h: 0.1, target: true },
    { x: 0.5, y: 0.5, w: 0.2, h: 0.1, target: false, shape: 'ellipse' },
    { x: 0.6, y: 0.8, w: 0.2, h: 0.1, target: false },
  ],
});

function drawn(container: HTMLElement) {
  return [...container.querySelectorAll('rect, ellipse')].map(
    (shape) => `${shape.tagName}.${shape.getAttribute('class')}`,
  );
}

describe('OcclusionImage', () => {
  it('hide one: the question covers the target only, the answer outlines it', () => {
    const question = render(<OcclusionImage occlusion={view('hide_one')} revealed={false} />);
    expect(drawn(question.container)).toEqual(['rect.occlusion-image__mask occlusion-image__mask--target']);
    expect(screen.getByRole('img', { name: messages.occlusionImageAlt })).toHaveAttribute('src', '/media/abc.png');
    question.unmount();
    const answer = render(<OcclusionImage occlusion={view('hide_one')} revealed />);
    expect(drawn(answer.container)).toEqual(['rect.occlusion-image__reveal']);
  });

  it('hide all: the question covers every mask, the answer uncovers the target only', () => {
    const question = render(<OcclusionImage occlusion={view('hide_all')} revealed={false} />);
    expect(drawn(question.container)).toEqual([
      'rect.occlusion-image__mask occlusion-image__mask--target',
      'ellipse.occlusion-image__mask',
      'rect.occlusion-image__mask',
    ]);
    question.unmount();
    const answer = render(<OcclusionImage occlusion={view('hide_all')} revealed />);
    expect(drawn(answer.container)).toEqual([
      'rect.occlusion-image__reveal',
      'ellipse.occlusion-image__mask',
      'rect.occlusion-image__mask',
    ]);
  });

  it('places masks in the unit square stretched over the image, so they keep their place at any width', () => {
    const { container } = render(<OcclusionImage occlusion={view('hide_all')} revealed={false} />);
    const svg = container.querySelector('svg') as SVGSVGElement;
    expect(svg.getAttribute('viewBox')).toBe('0 0 1 1');
    expect(svg.getAttribute('preserveAspectRatio')).toBe('none');
    const ellipse = container.querySelector('ellipse') as SVGEllipseElement;
    expect([ellipse.getAttribute('cx'), ellipse.getAttribute('cy'), ellipse.getAttribute('rx')]).toEqual([
      '0.6',
      '0.55',
      '0.1',
    ]);
  });
});
