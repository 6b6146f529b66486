import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
import { loadChunk } from '../lib/with-timeout';
import { FallbackRedirect, GuestOnly, RequireAuth } from './guards';
import { AppLayout, RootLayout } from './layouts';
import { RouteErrorScreen } from './route-error-screen';

/** A page loaded on first visit only, within the chunk time limit. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await loadChunk(load)) });
}

/** The routes of product-spec.md section 2. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorScreen />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      {
        path: '/login',
        element: <GuestOnly />,
        children: [
          {
            index: true,
            lazy: page(
              () => import('../pages/login-page'),
              (m) => m.LoginPage,
            ),
          },
        ],
      },
      {
        path: '/share/:shareCode',
        lazy: page(
          () => import('../pages/share-page'),
          (m) => m.SharePage,
        ),
      },
      {
        path: '/share',
        lazy: page(
          () => import('../pages/share-page'),
          (m) => m.SharePage,
        ),
      },
      {
        path: '/privacy',
        lazy: page(
          () => import('../pages/privacy-page'),
          (m) => m.PrivacyPage,
        ),
      },
      {
        path: '/privacy-settings',
        lazy: page(
          () => import('../pages/privacy-settings-page'),
          (m) => m.PrivacySettingsPage,
        ),
      },
      {
        path: '/best-for/:audience',
        lazy: page(
          () => import('../pages/best-for-page'),
          (m) => m.BestForPage,
        ),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              {
                path: '/create',
                lazy: page(
                  () => import('../pages/create-page'),
                  (m) => m.CreatePage,
                ),
              },
              {
                path: '/review',
                lazy: page(
                  () => import('../pages/review-page'),
                  (m) => m.ReviewPage,
                ),
              },
              {
                path: '/quiz',
                lazy: page(
                  () => import('../pages/quiz-page'),
                  (m) => m.QuizPage,
                ),
              },
              {
                path: '/stats',
                lazy: page(
                  () => import('../pages/stats-page'),
                  (m) => m.StatsPage,
                ),
              },
              {
                path: '/account',
                lazy: page(
                  () => import('../pages/account-page'),
                  (m) => m.AccountPage,
                ),
              },
            ],
          },
        ],
      },
      { path: '*', element: <FallbackRedirect /> },
    ],
  },
];
