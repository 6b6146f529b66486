// Prerendered pages (scripts/prerender.mjs) paint from their HTML and inlined CSS alone: the app's code starts
// loading once the first frame is on screen, so that it never competes with that paint for a slow connection.
(() => {
  const entry = document.currentScript?.dataset.entry;
  if (!entry) return;
  const load = () => {
    const app = document.createElement('script');
    app.type = 'module';
    app.src = entry;
    document.head.append(app);
  };
  requestAnimationFrame(() => setTimeout(load, 0));
})();
