import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';
import { setAnalyticsConsent } from './consent-store';
import { CookieConsentBanner } from './cookie-consent-banner';

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '*', element: <CookieConsentBanner /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const banner = () => screen.queryByRole('region', { name: 'Cookie consent' });

describe('cookie consent banner', () => {
  it('shows while consent is unset, on every page but /privacy', async () => {
    const router = renderAt('/login');
    expect(banner()).toBeInTheDocument();
    await act(() => router.navigate('/privacy'));
    expect(banner()).not.toBeInTheDocument();
    await act(() => router.navigate('/privacy-settings'));
    expect(banner()).toBeInTheDocument();
  });

  it('Accept stores consent and hides the banner', () => {
    renderAt('/login');
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(localStore.get(storageKeys.analyticsConsent)).toBe('true');
    expect(banner()).not.toBeInTheDocument();
  });

  it('Decline stores the refusal and hides the banner', () => {
    renderAt('/share/abc');
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(localStore.get(storageKeys.analyticsConsent)).toBe('false');
    expect(banner()).not.toBeInTheDocument();
  });

  it('stays hidden once a choice is stored, and follows changes made elsewhere', () => {
    localStore.set(storageKeys.analyticsConsent, 'false');
    renderAt('/login');
    expect(banner()).not.toBeInTheDocument();
    act(() => setAnalyticsConsent(true));
    expect(banner()).not.toBeInTheDocument();
    expect(localStore.get(storageKeys.analyticsConsent)).toBe('true');
  });

  it('leaves a blank line of its height when a prerendered page meets a visitor who already chose', async () => {
    const tree = (
      <MemoryRouter initialEntries={['/login']}>
        <CookieConsentBanner />
      </MemoryRouter>
    );
    // The prerender knows no storage: its HTML holds the banner.
    const container = document.createElement('div');
    container.innerHTML = renderToString(tree);
    document.body.append(container);
    expect(container.querySelector('section.consent-banner')).not.toBeNull();
    localStore.set(storageKeys.analyticsConsent, 'false');
    const root = await act(async () => hydrateRoot(container, tree));
    await waitFor(() => expect(container.querySelector('section.consent-banner')).toBeNull());
    const standIn = container.querySelector('.consent-banner');
    expect(standIn?.className).toBe('consent-banner consent-banner--gone');
    expect(standIn?.textContent).toBe('');
    act(() => root.unmount());
    container.remove();
  });
});
