// Import rules that Biome cannot state, checked by `npm run lint` (dependency-cruiser): no import cycle between
// files or between folders, on the server, the web app or the shared package, and web features that reach each other
// only through a shared place. Type-only imports count: a cycle of types is still a knot a reader has to untie.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-file-cycle',
      severity: 'error',
      comment: 'A file must not import, directly or through others, a file that imports it: move what both need down.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      comment: 'A folder must not depend on a folder that depends on it: move what both need to a folder below them.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'web-features-apart',
      severity: 'error',
      comment:
        'A web feature imports another only through a shared place (apps/web/src/lib, components or app): move what both need there.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)(node_modules|dist|\\.tsbuild)/', '\\.test\\.tsx?$', '^apps/[^/]+/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
