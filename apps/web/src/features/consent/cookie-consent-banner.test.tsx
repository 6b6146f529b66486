import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
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
});
