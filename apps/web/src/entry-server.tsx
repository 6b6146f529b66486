/**
 * The build's prerender (scripts/prerender.mjs) renders the public pages and the signed-in shell to HTML with this
 * module, built by Vite for Node: the same routes, providers and components as the browser, for a visitor with
 * empty storage, so that the browser hydrates exactly what it was sent.
 */
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import {
  createStaticHandler,
  createStaticRouter,
  matchPath,
  type RouteObject,
  StaticRouter,
  StaticRouterProvider,
} from 'react-router';
import { MemberShell, RootLayout } from './app/layouts';
import { createQueryClient, Providers } from './app/providers';
import { PublicApp, publicPages } from './app/public-app';
import { audiences } from './features/marketing/audiences';
import { createApiClient } from './lib/api-client';
import type { TokenStore } from './lib/token-store';
import { DocumentTitleSink } from './lib/use-document-title';

/** The pages sent as HTML: everything a visitor can read without signing in, whatever their storage holds. */
export const prerenderedPages: readonly string[] = [
  '/login',
  '/privacy',
  '/privacy-settings',
  ...audiences.map((audience) => `/best-for/${audience.slug}`),
];

/** The signed-in pages whose navigation bar and skeleton are sent as HTML, each with its own link marked current. */
export const shellPages: readonly string[] = ['/review', '/create', '/quiz', '/stats', '/account'];

/** The source module of the page at `path` (its key in Vite's manifest), whose chunks the prerendered HTML preloads. */
export function pageModule(path: string): string {
  const name = path.startsWith('/best-for/') ? 'best-for' : path.slice(1);
  return `src/pages/${name}-page.tsx`;
}

const noTokens: TokenStore = { get: () => null, set: () => {}, remove: () => {} };
// Without the consent banner: most signed-in learners chose long ago, and the app that replaces the shell shows it
// to those who did not.
const shellRoutes: RouteObject[] = [
  { element: <RootLayout consent={false} />, children: [{ path: '*', element: <MemberShell /> }] },
];

export interface RenderedPage {
  html: string;
  /** The title the page sets, if it sets one. */
  title: string | null;
}

async function render(routeTable: RouteObject[], path: string): Promise<RenderedPage> {
  const handler = createStaticHandler(routeTable);
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${path} answered a redirect (${context.status}), not a page`);
  if (context.errors) throw new Error(`${path} failed to load: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const api = createApiClient({ tokens: noTokens, onUnauthorized: () => {} });
  let title: string | null = null;
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <DocumentTitleSink.Provider value={(value) => (title = value)}>
        <Providers api={api} tokens={noTokens} queryClient={createQueryClient()} goTo={() => {}}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </Providers>
      </DocumentTitleSink.Provider>
    </StrictMode>,
  );
  return { html: await text(prelude), title };
}

async function text(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A public page as a visitor first sees it, rendered as public-main.tsx hydrates it. */
export async function renderPage(path: string): Promise<RenderedPage> {
  const page = publicPages.find((candidate) => matchPath(candidate.path, path));
  if (!page) throw new Error(`${path} is not a public page`);
  const Page = await page.load();
  const api = createApiClient({ tokens: noTokens, onUnauthorized: () => {} });
  let title: string | null = null;
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <DocumentTitleSink.Provider value={(value) => (title = value)}>
        <StaticRouter location={path}>
          <PublicApp api={api} tokens={noTokens} goTo={() => {}} page={page} Page={Page} />
        </StaticRouter>
      </DocumentTitleSink.Provider>
    </StrictMode>,
  );
  return { html: await text(prelude), title };
}

/** The signed-in shell (navigation bar, skeleton page) at `path`. */
export async function renderShell(path: string): Promise<RenderedPage> {
  return await render(shellRoutes, path);
}
