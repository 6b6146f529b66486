import { timeouts } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, loadChunk } from '../lib/with-timeout';
import { RouteErrorScreen } from './route-error-screen';

afterEach(() => {
  vi.useRealTimers();
});

function renderRoute(lazy: () => Promise<never>) {
  const routes = [{ path: '/', errorElement: <RouteErrorScreen />, hydrateFallbackElement: <p>…</p>, lazy }];
  const router = createMemoryRouter(routes, {
    initialEntries: ['/'],
  });
  render(<RouterProvider router={router} />);
}

describe('generic fallbacks', () => {
  it('a chunk that fails to load shows the reload advice', async () => {
    renderRoute(() => loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))));
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText(messages.chunkLoadFailed)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
  });

  it('any other error shows the router error screen with its message', async () => {
    renderRoute(() => Promise.reject(new Error('boom')));
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('boom')).toBeInTheDocument();
  });

  it('a chunk that has not arrived after 120 s counts as failed', async () => {
    vi.useFakeTimers();
    const outcome = loadChunk(() => new Promise<never>(() => {})).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(timeouts.chunkLoadMs - 1);
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBeInstanceOf(ChunkLoadError);
    expect(timeouts.chunkLoadMs).toBe(120_000);
  });
});
