import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CardImages } from './card-images';

describe('CardImages', () => {
  it('shows each image of the card in order, each with its own alternative text', () => {
    const first = `/media/${'a'.repeat(40)}.png`;
    const second = `/media/${'b'.repeat(40)}.jpg`;
    render(<CardImages images={[first, second]} />);
    const images = screen.getAllByRole('img');
    expect(images.map((image) => [image.getAttribute('src'), image.getAttribute('alt')])).toEqual([
      [first, 'Figure 1 of this card'],
      [second, 'Figure 2 of this card'],
    ]);
  });

  it('renders nothing for a card without images', () => {
    const { container } = render(<CardImages images={[]} />);
    expect(container.innerHTML).toBe('');
    const { container: unknown } = render(<CardImages images={undefined} />);
    expect(unknown.innerHTML).toBe('');
  });
});
