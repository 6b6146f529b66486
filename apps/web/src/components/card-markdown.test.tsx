import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CardMarkdown } from './card-markdown';

describe('CardMarkdown', () => {
  it('renders markdown and math', async () => {
    const { container } = render(<CardMarkdown text={'**Energy**: $E=mc^2$'} />);
    expect(await screen.findByText('Energy')).toHaveProperty('tagName', 'STRONG');
    expect(container.querySelector('.katex')).not.toBeNull();
  });

  it('keeps link addresses only for the allowed schemes', async () => {
    render(
      <CardMarkdown
        text={
          '[web](https://example.com) [mail](mailto:a@example.com) [chat](xmpp:a@example.com) [rel](/decks) [bad](javascript:alert(1)) [data](data:text/html,x)'
        }
      />,
    );
    expect((await screen.findByText('web')).getAttribute('href')).toBe('https://example.com');
    expect(screen.getByText('mail').getAttribute('href')).toBe('mailto:a@example.com');
    expect(screen.getByText('chat').getAttribute('href')).toBe('xmpp:a@example.com');
    expect(screen.getByText('rel').getAttribute('href')).toBe('/decks');
    expect(screen.getByText('bad').getAttribute('href')).toBe('');
    expect(screen.getByText('data').getAttribute('href')).toBe('');
  });

  it('does not render raw HTML', async () => {
    const { container } = render(<CardMarkdown text={'<img src=x onerror="alert(1)"> plain'} />);
    await screen.findByText(/plain/);
    expect(container.querySelector('img')).toBeNull();
  });
});
