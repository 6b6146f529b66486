import { type ReactNode, useRef } from 'react';
import { Navigate, Outlet } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
import { useAuth } from '../lib/auth-context';
import { afterSignInPath } from '../lib/pending-import';

/** /create, /review, /account, /quiz: signed-in users only, everyone else to /login. */
export function RequireAuth({ children, fallback }: { children?: ReactNode; fallback?: ReactNode }) {
  const { user, loading } = useAuth();
  if (loading) return fallback ?? <LoadingScreen />;
  if (!user) return <Navigate to="/login" replace />;
  return children ?? <Outlet />;
}

/**
 * /login: someone already signed in when they arrive goes to /review; someone who signs in here goes on to
 * /create (or back to the shared deck they were importing).
 */
export function GuestOnly({ children }: { children?: ReactNode }) {
  const { user, loading } = useAuth();
  const signedInOnArrival = useRef<boolean | null>(null);
  if (loading) return <LoadingScreen />;
  if (signedInOnArrival.current === null) signedInOnArrival.current = user !== null;
  if (user) return <Navigate to={signedInOnArrival.current ? '/review' : afterSignInPath()} replace />;
  return children ?? <Outlet />;
}

/** Any other path (and '/'): /review when signed in, else /login. */
export function FallbackRedirect() {
  const { user, loading } = useAuth();
  if (loading) return <LoadingScreen />;
  return <Navigate to={user ? '/review' : '/login'} replace />;
}
