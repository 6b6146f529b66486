import type { ReactNode } from 'react';
import { useAuth } from '../features/auth/auth-context';
import { NavBar } from './nav-bar';
import { PublicHeader } from './public-header';
import { SiteFooter } from './site-footer';

/** Public pages that signed-in users visit too: their navigation bar when signed in, the visitor's otherwise. */
export function SiteLayout({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  return (
    <>
      {user ? <NavBar /> : <PublicHeader />}
      {children}
      <SiteFooter />
    </>
  );
}
