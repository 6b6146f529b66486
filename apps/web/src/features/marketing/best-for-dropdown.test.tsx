import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { BestForDropdown } from './best-for-dropdown';

function renderDropdown() {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <div>
            <p>Outside</p>
            <BestForDropdown />
          </div>
        ),
      },
    ],
    { initialEntries: ['/login'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const toggle = () => screen.getByRole('button', { name: /Best for\?/ });

describe("'Best for?' dropdown", () => {
  it('opens to links to the five marketing pages', () => {
    renderDropdown();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle());
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/best-for/medical-students',
      '/best-for/language-learners',
      '/best-for/stem-majors',
      '/best-for/professionals',
      '/best-for/teachers',
    ]);
  });

  it('closes on a click outside, but not on a click inside', () => {
    renderDropdown();
    fireEvent.click(toggle());
    fireEvent.mouseDown(screen.getByRole('link', { name: 'Teachers' }));
    expect(screen.getByRole('link', { name: 'Teachers' })).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByText('Outside'));
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes on Escape and when a page is chosen', async () => {
    const router = renderDropdown();
    fireEvent.click(toggle());
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(toggle()).toHaveFocus();
    fireEvent.click(toggle());
    fireEvent.click(screen.getByRole('link', { name: 'STEM majors' }));
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/best-for/stem-majors');
  });
});
