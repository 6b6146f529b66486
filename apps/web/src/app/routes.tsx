import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
import { FallbackRedirect, GuestOnly, RequireAuth } from '../layout/guards';
import { loadChunk } from '../lib/with-timeout';
import { AppLayout, MemberShell, RootLayout } from './layouts';
import { RouteErrorScreen } from './route-error-screen';

/** A page loaded on first visit only, within the chunk time limit: its module and the name of its component. */
function page<M extends Record<K, ComponentType>, K extends keyof M>(load: () => Promise<M>, name: K) {
  return async () => ({ Component: (await loadChunk(load))[name] });
}

const sharePage = page(() => import('../pages/share-page'), 'SharePage');

/** Open to everyone, signed in or not: path → page. */
const publicPages: RouteObject[] = [
  { path: '/share/:shareCode', lazy: sharePage },
  { path: '/share', lazy: sharePage },
  { path: '/privacy', lazy: page(() => import('../pages/privacy-page'), 'PrivacyPage') },
  { path: '/privacy-settings', lazy: page(() => import('../pages/privacy-settings-page'), 'PrivacySettingsPage') },
  { path: '/best-for/:audience', lazy: page(() => import('../pages/best-for-page'), 'BestForPage') },
  { path: '/join/:joinCode', lazy: page(() => import('../pages/join-page'), 'JoinPage') },
];

/** Signed-in users only, inside the app's header: path → page. */
const memberPages: RouteObject[] = [
  { path: '/create', lazy: page(() => import('../pages/create-page'), 'CreatePage') },
  { path: '/review', lazy: page(() => import('../pages/review-page'), 'ReviewPage') },
  { path: '/quiz', lazy: page(() => import('../pages/quiz-page'), 'QuizPage') },
  { path: '/stats', lazy: page(() => import('../pages/stats-page'), 'StatsPage') },
  { path: '/account', lazy: page(() => import('../pages/account-page'), 'AccountPage') },
  { path: '/my-classes', lazy: page(() => import('../pages/classes-page'), 'ClassesPage') },
  { path: '/my-classes/:classId', lazy: page(() => import('../pages/class-page'), 'ClassPage') },
];

/** The web app's routes (README.md, "Using it"). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorScreen />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      {
        path: '/login',
        element: <GuestOnly />,
        children: [{ index: true, lazy: page(() => import('../pages/login-page'), 'LoginPage') }],
      },
      ...publicPages,
      {
        // The navigation bar and a skeleton paint while the session is checked and the page's code loads.
        element: <RequireAuth fallback={<MemberShell />} />,
        hydrateFallbackElement: <MemberShell />,
        children: [{ element: <AppLayout />, children: memberPages }],
      },
      { path: '*', element: <FallbackRedirect /> },
    ],
  },
];
