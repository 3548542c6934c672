/**
 * The layer rules of docs/architecture.md, checked by `npm test` (npm run lint:deps). A violation
 * fails the run and names the rule. Type-only imports are seen too (tsPreCompilationDeps), because a
 * type import is how a server folder would first leak into the browser bundle.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'Folders under src/ form layers (docs/architecture.md): a lower folder never imports a higher one, so no ' +
        'two folders import each other, directly or through others. Move the shared piece down a layer, or ' +
        'invert the dependency with a port.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { path: '^src/', circular: true },
    },
    {
      name: 'browser-code-imports-only-shared',
      severity: 'error',
      comment:
        'views/ and client/ run in the browser: from src/ they may import src/shared/ only. The one exception is ' +
        "the type of the account API's router (erased at build, so no server code reaches the bundle).",
      from: { path: '^(views|client)/' },
      to: {
        path: '^src/',
        pathNot: ['^src/shared/', '^src/api/app-router\\.ts$'],
      },
    },
    {
      name: 'browser-code-imports-router-type-only',
      severity: 'error',
      comment:
        'The API router may reach views/ and client/ as a type (import type), never as code.',
      from: { path: '^(views|client)/' },
      to: { path: '^src/api/app-router\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-imports-no-node-builtin',
      severity: 'error',
      comment:
        'src/shared/ runs in the browser as well as on the server: no Node built-in (fs, crypto, path, ...).',
      from: { path: '^src/shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'shared-imports-only-shared',
      severity: 'error',
      comment: 'src/shared/ is the bottom layer: it imports nothing else of ours.',
      from: { path: '^src/shared/' },
      to: { path: '^(src/(?!shared/)|views/|client/)' },
    },
    {
      name: 'services-do-not-speak-http',
      severity: 'error',
      comment:
        'Services take typed inputs and return outcomes; only controllers and middleware touch express ' +
        '(src/common/http-outcome.ts applies an outcome to the response).',
      from: { path: '\\.service\\.ts$' },
      to: { path: '(^|/)node_modules/(@types/)?express/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
