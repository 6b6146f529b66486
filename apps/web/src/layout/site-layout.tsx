import type { ReactNode } from 'react';
import { SiteFooter } from '../components/site-footer';
import { useAuth } from '../lib/auth-context';
import { NavBar } from './nav-bar';
import { PublicHeader } from './public-header';

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
