import { Outlet } from 'react-router';
import { PageSkeleton } from '../components/page-skeleton';
import { CookieConsentBanner } from '../features/consent/cookie-consent-banner';
import { NavBar } from '../layout/nav-bar';

/** Around every page: a skip link, the consent banner (which hides itself on /privacy) and the page. */
export function RootLayout({ consent = true }: { consent?: boolean }) {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      {consent && <CookieConsentBanner />}
      <Outlet />
    </>
  );
}

/** The signed-in screens: navigation bar above the page. */
export function AppLayout() {
  return (
    <>
      <NavBar />
      <Outlet />
    </>
  );
}

/** A signed-in screen before its session or page code is ready: the navigation bar and a skeleton page. */
export function MemberShell() {
  return (
    <>
      <NavBar />
      <PageSkeleton />
    </>
  );
}
