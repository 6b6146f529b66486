// Prerendered pages (scripts/prerender.mjs) paint from their HTML and inlined CSS alone: the app's code (the entry
// and the chunks listed in data-preload) starts loading once the first frame is on screen, so that it never
// competes with that paint for a slow connection.
(() => {
  const entry = document.currentScript?.dataset.entry;
  const preloads = document.currentScript?.dataset.preload?.split(' ').filter(Boolean) ?? [];
  if (!entry) return;
  const load = () => {
    // The chunks the entry and this page's route import, fetched beside the entry rather than after it.
    for (const href of preloads) {
      const link = document.createElement('link');
      link.rel = href.endsWith('.css') ? 'preload' : 'modulepreload';
      if (href.endsWith('.css')) link.as = 'style';
      link.href = href;
      document.head.append(link);
    }
    const app = document.createElement('script');
    app.type = 'module';
    app.src = entry;
    document.head.append(app);
  };
  requestAnimationFrame(() => setTimeout(load, 0));
})();
