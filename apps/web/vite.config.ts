import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

/** In `vite` dev mode the API (npm run dev, port 3000) answers its paths; a page load of the same path gets the app. */
const apiPaths = [
  '/api',
  '/healthz',
  '/signup',
  '/login',
  '/google-login',
  '/users',
  '/decks',
  '/cards',
  '/save-cards',
  '/notes',
  '/create',
  '/shared',
  '/send-feedback',
];
const toApi: ProxyOptions = {
  target: process.env.API_URL ?? 'http://127.0.0.1:3000',
  bypass: (request) => (request.headers.accept?.includes('text/html') ? '/index.html' : undefined),
};

export default defineConfig(({ mode }) => ({
  plugins: [react()],
  server: { port: 5173, proxy: Object.fromEntries(apiPaths.map((path) => [path, toApi])) },
  // No source maps in the build: it is served as-is, and maps would publish the sources.
  // The manifest tells the prerender (scripts/prerender.mjs) which chunks each page needs; it removes it afterwards.
  // `--mode public` builds the public pages' light entry (src/public-main.tsx) into the same dist/, beside the app:
  // a build of its own, so that it holds only what those pages use of React Router and the shared code (one build
  // shares such chunks between its entries, with everything either entry uses in them).
  build:
    mode === 'public'
      ? {
          outDir: 'dist',
          emptyOutDir: false,
          copyPublicDir: false,
          sourcemap: false,
          manifest: '.vite/public-manifest.json',
          rollupOptions: { input: { public: 'src/public-main.tsx' } },
        }
      : { outDir: 'dist', sourcemap: false, manifest: true },
  // The prerender's Node build (src/entry-server.tsx) bundles the shared package, whose exports are TypeScript.
  ssr: { noExternal: ['@flashcards/shared'] },
}));
