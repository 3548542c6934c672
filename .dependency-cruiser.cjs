/**
 * The layer rules of docs/architecture.md, checked by `npm test` (npm run lint:deps). A violation
 * fails the run and names the rule. Type-only imports are seen too (tsPreCompilationDeps), because a
 * type import is how a server folder would first leak into the browser bundle.
 */
/**
 * The folders of src/, lowest layer first (docs/architecture.md "Layers"). A folder may import its own
 * layer's folders (no cycle allowed, see no-folder-cycles) and lower layers', never a higher layer's.
 */
const LAYERS = [
  ['shared', 'errors', 'lifecycle', 'common'],
  ['config', 'metrics', 'tracing'],
  ['cookies', 'logging', 'oidc', 'locale', 'brand', 'store'],
  ['session', 'render'],
  ['http', 'api', 'idp', 'health', 'rate-limit', 'management'],
  ['auth', 'shell', 'token'],
  ['backchannel', 'demo'],
];
const folders = (layers) => `^src/(${layers.flat().join('|')})/`;

/** One rule per layer: nothing in it imports a folder of a higher layer. */
const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: 'layer-order',
  severity: 'error',
  comment:
    `src/{${layer.join(',')}} (layer ${i}) may not import a higher layer ` +
    '(docs/architecture.md "Layers"): move the shared piece down, or invert the dependency with a port.',
  from: { path: folders([layer]) },
  to: { path: folders(LAYERS.slice(i + 1)) },
}));

/**
 * Where browser code starts (issue 16, "Done when"): the client bundle's entry (scripts/build-client.js)
 * and the server's, which renders views/ (src/render/, src/idp/). Every other module of views/ and
 * client/ is reached from one of them, or it is dead code.
 */
const BROWSER_CODE_ENTRIES = ['^client/main\\.tsx$', '^src/main\\.ts$'];
/** Specs import their subject, but nothing imports a spec. */
const SPEC_FILES = '\\.spec\\.tsx?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'every-folder-has-a-layer',
      severity: 'error',
      comment:
        'A new folder under src/ gets its place in LAYERS above (and in docs/architecture.md).',
      from: { path: '^src/[^/]+/', pathNot: folders(LAYERS) },
      to: {},
    },
    {
      name: 'every-folder-has-a-layer',
      severity: 'error',
      comment:
        'A new folder under src/ gets its place in LAYERS above (and in docs/architecture.md).',
      from: {},
      to: { path: '^src/[^/]+/', pathNot: folders(LAYERS) },
    },
    {
      name: 'composition-root-is-on-top',
      severity: 'error',
      comment:
        'main.ts, app.factory.ts and app.module.ts assemble the app; no folder imports them.',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/[^/]+\\.tsx?$' },
    },
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
      name: 'no-circular',
      severity: 'error',
      comment:
        'No module imports itself back, directly or through others (type imports included): move what ' +
        'both need to a module of its own (as src/idp/interaction/page-context.ts holds PageContext).',
      from: { path: '^(src|views|client)/' },
      to: { circular: true },
    },
    {
      name: 'store-does-not-know-sessions',
      severity: 'error',
      comment:
        'src/store/ is the storage under the sessions (docs/architecture.md "Layers"): it keeps strings ' +
        'under keys and knows nothing of what src/session/ puts there.',
      from: { path: '^src/store/' },
      to: { path: '^src/session/' },
    },
    {
      name: 'openid-client-only-in-the-adapter',
      severity: 'error',
      comment:
        'openid-client is called only by the OIDC adapter, src/oidc/oidc-client.ts (docs/design.md ' +
        '"Style": third-party calls behind one adapter); add what you need to OidcClient.',
      from: { path: '^(src|views|client)/', pathNot: '^src/oidc/oidc-client\\.ts$' },
      to: { path: '(^|/)node_modules/openid-client/' },
    },
    {
      name: 'redis-only-in-its-adapter',
      severity: 'error',
      comment:
        'ioredis and the Redis adapter load only when Redis is configured (issue 18 item 4): only the ' +
        'Redis modules of src/store/ import them, and everything else reaches the adapter through ' +
        'src/store/redis-session-store.loader.ts (a dynamic import). A type import is fine.',
      from: {
        path: '^(src|views|client)/',
        pathNot: ['^src/store/(redis-|sentinel-failover-watch)', SPEC_FILES],
      },
      to: {
        path: [
          '(^|/)node_modules/ioredis/',
          '^src/store/(redis-session-store|redis-client|sentinel-failover-watch)\\.ts$',
        ],
        dependencyTypesNot: ['type-only'],
      },
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
        pathNot: ['^src/shared/', '^src/api/app-router-factory\\.ts$'],
      },
    },
    {
      name: 'browser-code-imports-router-type-only',
      severity: 'error',
      comment:
        'The API router may reach views/ and client/ as a type (import type), never as code.',
      from: { path: '^(views|client)/' },
      to: { path: '^src/api/app-router-factory\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A module of views/ or client/ that imports nothing of ours and that nothing imports is used ' +
        'by no page (issue 16): render it where the specification wants it, or delete it. Only the ' +
        'entry points and specs are exempt.',
      from: {
        orphan: true,
        path: '^(views|client)/',
        pathNot: [...BROWSER_CODE_ENTRIES, SPEC_FILES],
      },
      to: {},
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A module of views/ or client/ that only its spec (or other dead code) imports is used by no ' +
        'page (issue 16): neither the client bundle (client/main.tsx) nor the server (src/main.ts) ' +
        'reaches it. Render it where the specification wants it, or delete it.',
      from: { path: BROWSER_CODE_ENTRIES },
      to: {
        path: '^(views|client)/',
        pathNot: [...BROWSER_CODE_ENTRIES, SPEC_FILES],
        reachable: false,
      },
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
        '(src/http/apply-outcome.ts applies an outcome to the response).',
      from: { path: '\\.service\\.ts$' },
      to: { path: '(^|/)node_modules/(@types/)?express/' },
    },
    {
      name: 'express-only-at-the-http-edge',
      severity: 'error',
      comment:
        'Only the HTTP edge touches express: controllers, middleware, guards, the exception filter, ' +
        'src/http/, the API context and its answer writer, the cookie reader/writer, the page renderer and sender and the shell door. ' +
        'Everything else takes typed input.',
      from: {
        path: '^src/',
        pathNot: [
          '\\.(controller|middleware|guard|filter|module|spec)\\.tsx?$',
          '^src/http/',
          '^src/api/trpc\\.ts$',
          '^src/api/trpc-node-handler\\.ts$',
          '^src/cookies/response-cookies\\.ts$',
          '^src/render/shell-renderer\\.ts$',
          '^src/render/send-page\\.ts$',
          '^src/shell/shell-door\\.ts$',
        ],
      },
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
