import type { ComponentType, ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { CookieConsentBanner } from '../features/consent/cookie-consent-banner';
import { GuestOnly } from '../layout/guards';
import type { ApiClient } from '../lib/api-client';
import { ApiProvider } from '../lib/api-context';
import { VisitorAuthProvider } from '../lib/auth-context';
import type { TokenStore } from '../lib/token-store';

/** A prerendered public page: its route pattern, its code, and whether only visitors see it (/login). */
export interface PublicPage {
  path: string;
  load: () => Promise<ComponentType>;
  guestOnly?: boolean;
}

/**
 * The pages a visitor reads before signing in, hydrated by their own light entry (public-main.tsx): no data router,
 * no query cache, one page's code. Their links are full page loads (public pages arrive prerendered; every other
 * page loads the whole app), so the page at hand is the only route there is.
 */
export const publicPages: readonly PublicPage[] = [
  { path: '/login', load: async () => (await import('../pages/login-page')).LoginPage, guestOnly: true },
  { path: '/privacy', load: async () => (await import('../pages/privacy-page')).PrivacyPage },
  {
    path: '/privacy-settings',
    load: async () => (await import('../pages/privacy-settings-page')).PrivacySettingsPage,
  },
  { path: '/best-for/:audience', load: async () => (await import('../pages/best-for-page')).BestForPage },
];

export interface PublicAppProps {
  api: ApiClient;
  tokens: TokenStore;
  goTo: (path: string) => void;
  page: PublicPage;
  Page: ComponentType;
}

/**
 * The same tree in the prerender (under a StaticRouter) and in the browser (under a Router whose navigation is a
 * page load), so hydration matches; as the full app's RootLayout: a skip link, the consent banner, the page.
 */
export function PublicApp({ api, tokens, goTo, page, Page }: PublicAppProps) {
  const content: ReactNode = page.guestOnly ? (
    <GuestOnly>
      <Page />
    </GuestOnly>
  ) : (
    <Page />
  );
  return (
    <ApiProvider client={api}>
      <VisitorAuthProvider api={api} tokens={tokens} goTo={goTo}>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <CookieConsentBanner />
        <Routes>
          <Route path={page.path} element={content} />
        </Routes>
      </VisitorAuthProvider>
    </ApiProvider>
  );
}
