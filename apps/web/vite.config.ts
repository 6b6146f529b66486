import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

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

/**
 * The installable app (docs/ARCHITECTURE.md, "Offline review"): a web manifest and a Workbox service worker that
 * precaches the app's shell, its lazy chunks and KaTeX's fonts, and answers every page load with the shell so the
 * app opens with no network. It never caches the API: review data is kept by the app itself in IndexedDB. A new
 * worker waits until the learner chooses to reload (registerType 'prompt'), so a review in progress is never cut.
 */
const installable = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  filename: 'sw.js',
  manifestFilename: 'manifest.webmanifest',
  includeAssets: ['favicon.svg'],
  manifest: {
    name: 'AI-Powered Flashcards',
    short_name: 'Flashcards',
    description: 'Turn your notes, PDFs and slides into flashcards with AI, then learn them with spaced repetition.',
    start_url: '/review',
    scope: '/',
    display: 'standalone',
    theme_color: '#4f46e5',
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // The app's own files: the shell, every lazy chunk, its styles and the KaTeX fonts of ordinary math (woff2: what
    // browsers that run service workers load); the rarer alphabets (\mathfrak, \mathscr, \mathsf, \mathtt) are kept
    // on the device when first shown, which keeps the precache within 1.5 MB. The prerendered pages and the public
    // entry's build are not the installed app, and the statistics' charts and the deck export only work with the
    // network: they load when used, as before.
    // start-app.js starts the app from a signed-in page's shell, which scripts/prerender.mjs adds to this list.
    globPatterns: [
      'index.html',
      'start-app.js',
      'assets/**/*.{js,css}',
      'assets/KaTeX_{Main,Math,AMS,Caligraphic,Size1,Size2,Size3,Size4}-*.woff2',
      'favicon.svg',
      'icons/*.png',
    ],
    globIgnores: [
      'prerendered/**',
      '.vite/**',
      'assets/chart-setup-*.js',
      'assets/export-deck-*.js',
      // CSV files (a deck's export, a class's progress) are made from what the server sends: online only.
      'assets/papaparse*.js',
    ],
    navigateFallback: '/index.html',
    // Page loads only: the API's paths are fetched by the app (never navigated to), except these, which are files,
    // and the pages the server renders itself (the local payment test mode's checkout and billing portal).
    navigateFallbackDenylist: [
      /^\/api\//,
      /^\/healthz/,
      /^\/media\//,
      /\/download/,
      /\.apkg$/,
      /^\/test-checkout\//,
      /^\/test-billing\//,
    ],
    // Card images are named by a hash of their content: kept once, served from the device, at most so many (the
    // oldest go first), so that the images of the cards kept for review show offline.
    runtimeCaching: [
      {
        urlPattern: ({ sameOrigin, url }) => sameOrigin && /^\/assets\/KaTeX_.*\.woff2$/.test(url.pathname),
        handler: 'CacheFirst',
        options: { cacheName: 'katex-fonts', cacheableResponse: { statuses: [200] } },
      },
      {
        urlPattern: ({ sameOrigin, url }) => sameOrigin && url.pathname.startsWith('/media/'),
        handler: 'CacheFirst',
        options: {
          cacheName: 'card-images',
          expiration: { maxEntries: 4_000, purgeOnQuotaError: true },
          cacheableResponse: { statuses: [200] },
        },
      },
    ],
    cleanupOutdatedCaches: true,
    clientsClaim: false,
    skipWaiting: false,
    maximumFileSizeToCacheInBytes: 1_500_000,
  },
});

export default defineConfig(({ mode, isSsrBuild }) => ({
  plugins: mode === 'public' || isSsrBuild ? [react()] : [react(), installable],
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
