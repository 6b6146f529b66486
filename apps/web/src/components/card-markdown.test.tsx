import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CardMarkdown, renderCardTextsAhead } from './card-markdown';
import { limitNesting, MAX_BLOCK_DEPTH, renderCardText } from './card-markdown-renderer';

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

  it('renders a text ahead once and shows that render later; a text that cannot render is left to its card', async () => {
    // The first card loads the renderer; ahead of that, nothing is rendered (and nothing throws).
    renderCardTextsAhead(['$a^2$']);
    const { container, unmount } = render(<CardMarkdown text={'$b^2$'} />);
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    unmount();
    const text = 'Ahead: $\\sqrt{x}$';
    renderCardTextsAhead([text, '$\\begin{unknown}$', 'plain text']);
    const ahead = renderCardText(text);
    expect(renderCardText(text)).toBe(ahead);
    const shown = render(<CardMarkdown text={text} />);
    expect(shown.container.querySelector('.katex')).not.toBeNull();
  });

  it('does not render raw HTML', async () => {
    const { container } = render(<CardMarkdown text={'<img src=x onerror="alert(1)"> plain'} />);
    await screen.findByText(/plain/);
    expect(container.querySelector('img')).toBeNull();
  });
});

describe('CardMarkdown limits (audit findings 14 and 15)', () => {
  it('caps math sizes: \\rule{5000em}{5000em} is drawn at most 10em', async () => {
    const { container } = render(<CardMarkdown text={'$\\rule{5000em}{5000em}$'} />);
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    const rule = container.querySelector('.katex .rule') as HTMLElement | null;
    expect(rule).not.toBeNull();
    expect(rule?.style.borderRightWidth).toBe('10em');
    expect(rule?.style.borderTopWidth).toBe('10em');
  });

  it('keeps trust off: \\href and \\includegraphics are not rendered as links or images', async () => {
    const { container } = render(
      <CardMarkdown text={'$\\href{javascript:alert(1)}{x}$ $\\includegraphics{https://e.x/a.png}$'} />,
    );
    await waitFor(() => expect(container.querySelector('.katex, .katex-error')).not.toBeNull());
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
  });

  it('renders 4,000 nested quotes without exhausting the stack, capped at the maximum depth', async () => {
    const { container } = render(<CardMarkdown text={`${'>'.repeat(4000)} hi`} />);
    await screen.findByText('hi');
    expect(container.querySelectorAll('blockquote').length).toBe(MAX_BLOCK_DEPTH);
  });

  it('limitNesting leaves ordinary quotes alone', () => {
    expect(limitNesting('> a\n>> b\nplain > not')).toBe('> a\n>> b\nplain > not');
    expect(limitNesting(`${'> '.repeat(30)}deep`)).toBe(`${'>'.repeat(MAX_BLOCK_DEPTH)} deep`);
  });

  it('shows one card as plain text when its rendering throws, and the rest of the page stays', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Thrower = () => {
      throw new Error('Maximum call stack size exceeded');
    };
    vi.doMock('./card-markdown-renderer', () => ({ CardMarkdownRenderer: Thrower }));
    vi.resetModules();
    const { CardMarkdown: Isolated } = await import('./card-markdown');
    render(
      <div>
        <Isolated text={'**broken** card'} />
        <p>still here</p>
      </div>,
    );
    expect(await screen.findByText('**broken** card')).toHaveProperty('className', 'card-markdown__plain');
    expect(screen.getByText('still here')).toBeTruthy();
    vi.doUnmock('./card-markdown-renderer');
    spy.mockRestore();
  });
});
