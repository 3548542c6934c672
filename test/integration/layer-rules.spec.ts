import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The layer rules of .dependency-cruiser.cjs (docs/architecture.md), run as `npm run lint:deps` runs
 * them: the repo's own depcruise binary and the repo's own config file (not a copy), on a small
 * throw-away tree in a temp directory. Each breach must fail the run and be named by its rule, and
 * nothing else; each allowed import must pass, with its dependency seen (counted) by the cruise.
 *
 * The temp tree gets the repo's compilerOptions and a symlink to the repo's node_modules, so
 * `express` resolves as it does in the repo (depcruise follows the symlink to the real path,
 * `.../node_modules/express/index.js`, which the services rule's path still matches).
 */

const REPO = resolve(__dirname, '../..');
const CONFIG = join(REPO, '.dependency-cruiser.cjs');
const DEPCRUISE = (() => {
  const dir = join(REPO, 'node_modules/dependency-cruiser');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  return join(dir, pkg.bin['depcruise'] ?? 'missing depcruise bin');
})();
const TSCONFIG = JSON.stringify({
  compilerOptions: (
    ts.readConfigFile(join(REPO, 'tsconfig.json'), ts.sys.readFile).config as {
      compilerOptions: unknown;
    }
  ).compilerOptions,
  include: ['src', 'views', 'client'],
});

/** A throw-away tree: path under the temp directory → file text. */
type Tree = Readonly<Record<string, string>>;

interface Cruise {
  readonly status: number;
  readonly output: string;
}

/** Runs `depcruise --config <repo config> --output-type err src views client` on the tree. */
async function cruise(files: Tree): Promise<Cruise> {
  const dir = await mkdtemp(join(tmpdir(), 'layer-rules-'));
  try {
    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await writeFile(join(dir, 'tsconfig.json'), TSCONFIG);
    for (const folder of ['src', 'views', 'client'])
      await mkdir(join(dir, folder), { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    }
    return await new Promise<Cruise>((done) => {
      execFile(
        process.execPath,
        [DEPCRUISE, '--config', CONFIG, '--output-type', 'err', 'src', 'views', 'client'],
        { cwd: dir, timeout: 30_000 },
        (error, stdout, stderr) => {
          const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
          done({ status, output: `${stdout}${stderr}` });
        },
      );
    });
  } finally {
    // Removes the node_modules symlink itself; never follows it into the repo.
    await rm(dir, { recursive: true, force: true });
  }
}

/** The rules the err reporter names, one `error <rule>: from → to` line per violation. */
function rulesNamed(output: string): string[] {
  return [...new Set([...output.matchAll(/^\s*error (\S+):/gm)].map((m) => m[1] ?? ''))].sort();
}

function dependenciesCruised(output: string): number | undefined {
  const count = /(\d+) dependencies cruised/.exec(output)?.[1];
  return count === undefined ? undefined : Number(count);
}

const leaf = 'export const value = 1;\n';
const shared = { 'src/shared/s.ts': leaf };
const router = {
  'src/api/app-router-factory.ts':
    'export const appRouter = { ping: () => "pong" };\nexport type AppRouter = typeof appRouter;\n',
};

interface Breach {
  /** The rule (or rules, when one import breaks several) the run must name, and no other. */
  readonly rule: string | readonly string[];
  readonly breach: string;
  readonly files: Tree;
}

const breaches: Breach[] = [
  {
    rule: 'no-folder-cycles',
    breach: 'src/auth imports src/shell, and src/shell imports src/auth (one layer)',
    files: {
      'src/auth/x.ts': "import { value } from '../shell/y';\nexport const x = value;\n",
      'src/auth/z.ts': leaf,
      'src/shell/y.ts': "import { value } from '../auth/z';\nexport { value };\n",
    },
  },
  {
    rule: 'browser-code-imports-only-shared',
    breach: 'views/ imports src/config/',
    files: {
      'src/config/x.ts': leaf,
      'views/v.tsx':
        "import { value } from '../src/config/x';\nexport const V = () => <p>{value}</p>;\n",
    },
  },
  {
    rule: 'browser-code-imports-only-shared',
    breach: 'client/ imports only a type from src/session/',
    files: {
      'src/session/x.ts': 'export interface Thing {\n  readonly id: string;\n}\n',
      'client/c.ts': "import type { Thing } from '../src/session/x';\nexport type C = Thing;\n",
    },
  },
  {
    rule: 'browser-code-imports-router-type-only',
    breach: 'client/ imports src/api/app-router-factory.ts as code',
    files: {
      ...router,
      'client/c.ts':
        "import { appRouter } from '../src/api/app-router-factory';\nexport const c = appRouter;\n",
    },
  },
  {
    rule: 'shared-imports-no-node-builtin',
    breach: "src/shared/ imports 'node:fs'",
    files: {
      'src/shared/s.ts': "import { existsSync } from 'node:fs';\nexport const e = existsSync;\n",
    },
  },
  {
    rule: 'shared-imports-only-shared',
    breach: 'src/shared/ imports src/errors/ (another folder of the bottom layer)',
    files: {
      'src/errors/x.ts': leaf,
      'src/shared/s.ts': "import { value } from '../errors/x';\nexport const s = value;\n",
    },
  },
  {
    rule: ['express-only-at-the-http-edge', 'services-do-not-speak-http'],
    breach: "a *.service.ts imports a type from 'express'",
    files: {
      'src/auth/x.service.ts':
        "import type { Request } from 'express';\nexport const path = (r: Request) => r.path;\n",
    },
  },
  {
    rule: 'express-only-at-the-http-edge',
    breach: "a plain class outside the HTTP edge imports from 'express'",
    files: {
      'src/session/x.ts':
        "import type { Request } from 'express';\nexport const path = (r: Request) => r.path;\n",
    },
  },
  {
    rule: 'layer-order',
    breach: 'src/config (layer 1) imports src/auth (layer 5), closing no cycle',
    files: {
      'src/auth/x.ts': leaf,
      'src/config/y.ts': "import { value } from '../auth/x';\nexport const y = value;\n",
    },
  },
  {
    rule: 'composition-root-is-on-top',
    breach: 'src/auth imports src/app.module.ts',
    files: {
      'src/app.module.ts': leaf,
      'src/auth/x.ts': "import { value } from '../app.module';\nexport const x = value;\n",
    },
  },
  {
    rule: 'no-orphans',
    breach: 'a views/ module imports nothing of ours and nothing imports it',
    files: { 'views/Lonely.tsx': 'export const Lonely = () => <p>alone</p>;\n' },
  },
  {
    rule: 'no-orphans',
    breach: 'a client/ module is imported only by its spec, not from the entry point',
    files: {
      ...shared,
      'client/main.tsx': "import { value } from '../src/shared/s';\nexport const m = value;\n",
      'client/unused.ts': "import { value } from '../src/shared/s';\nexport const u = value;\n",
      'client/unused.spec.ts': "import { u } from './unused';\nexport const s = u;\n",
    },
  },
  {
    rule: 'every-folder-has-a-layer',
    breach: 'src/session imports a folder that has no layer yet',
    files: {
      'src/newcomer/x.ts': leaf,
      'src/session/y.ts': "import { value } from '../newcomer/x';\nexport const y = value;\n",
    },
  },
  {
    rule: 'no-circular',
    breach: 'two modules of one folder import each other (type imports count)',
    files: {
      'src/idp/a.ts': "import type { B } from './b';\nexport interface A {\n  readonly b?: B;\n}\n",
      'src/idp/b.ts': "import type { A } from './a';\nexport interface B {\n  readonly a?: A;\n}\n",
    },
  },
  {
    rule: ['layer-order', 'store-does-not-know-sessions'],
    breach: 'src/store imports src/session',
    files: {
      'src/session/x.ts': leaf,
      'src/store/y.ts': "import { value } from '../session/x';\nexport const y = value;\n",
    },
  },
  {
    rule: 'openid-client-only-in-the-adapter',
    breach: "a service outside src/oidc/oidc-client.ts imports 'openid-client'",
    files: {
      'src/auth/x.service.ts':
        "import { randomNonce } from 'openid-client';\nexport const nonce = randomNonce;\n",
    },
  },
  {
    rule: 'redis-only-in-its-adapter',
    breach:
      "src/health imports 'ioredis', and src/idp the Redis adapter as code (not through its loader)",
    files: {
      'src/health/x.ts': "import Redis from 'ioredis';\nexport const R = Redis;\n",
      'src/store/redis-session-store.ts': 'export class RedisSessionStore {}\n',
      'src/idp/x.ts':
        "import { RedisSessionStore } from '../store/redis-session-store';\nexport const S = RedisSessionStore;\n",
    },
  },
];

interface Allowed {
  readonly allowed: string;
  /** The imports in the tree: the cruise must have seen each of them. */
  readonly dependencies: number;
  readonly files: Tree;
}

const oneWayFolders = {
  'src/config/x.ts': "import { value } from '../shared/s';\nexport const x = value;\n",
  'src/session/y.ts': "import { x } from '../config/x';\nexport const y = x;\n",
};
const viewsShared = {
  'views/v.tsx':
    "import { value } from '../src/shared/s';\nexport const V = () => <p>{value}</p>;\n",
};
const clientShared = {
  'client/shared.ts': "import { value } from '../src/shared/s';\nexport const c = value;\n",
};
const clientRouterType = {
  'client/api.ts':
    "import type { AppRouter } from '../src/api/app-router-factory';\nexport type Api = AppRouter;\n",
};
const controllerExpress = {
  'src/auth/x.controller.ts':
    "import type { Request } from 'express';\nexport const path = (r: Request) => r.path;\n",
};

const allowed: Allowed[] = [
  {
    allowed: 'a tree keeping every rule',
    dependencies: 6,
    files: {
      ...shared,
      ...router,
      ...oneWayFolders,
      ...viewsShared,
      ...clientShared,
      ...clientRouterType,
      ...controllerExpress,
    },
  },
  {
    allowed:
      'the Redis adapter reached through its loader (a dynamic import), and as a type elsewhere',
    dependencies: 4,
    files: {
      'src/store/redis-session-store.ts': 'export class RedisSessionStore {}\n',
      'src/store/redis-session-store.loader.ts':
        "import type { RedisSessionStore } from './redis-session-store';\n" +
        'export const load = async (): Promise<typeof RedisSessionStore> =>\n' +
        "  (await import('./redis-session-store')).RedisSessionStore;\n",
      'src/idp/x.ts':
        "import type { RedisSessionStore } from '../store/redis-session-store';\n" +
        "import { load } from '../store/redis-session-store.loader';\n" +
        'export const x = (s?: RedisSessionStore) => [s, load];\n',
    },
  },
  {
    allowed: 'views/ importing src/shared/',
    dependencies: 1,
    files: { ...shared, ...viewsShared },
  },
  {
    allowed: "client/ importing `import type { AppRouter } from '../src/api/app-router-factory'`",
    dependencies: 1,
    files: { ...router, ...clientRouterType },
  },
  {
    allowed:
      'views/ and client/ modules reached from the entry points (client/main.tsx, src/main.ts), ' +
      'the entry points themselves, and specs, even one that imports nothing',
    dependencies: 4,
    files: {
      ...shared,
      ...viewsShared,
      'client/main.tsx': "import { V } from '../views/v';\nexport const m = V;\n",
      'src/main.ts': "import { value } from './shared/s';\nexport const main = value;\n",
      'client/main.spec.ts': "import { m } from './main';\nexport const s = m;\n",
      'views/alone.spec.ts': leaf,
    },
  },
];

describe('layer rules (.dependency-cruiser.cjs, npm run lint:deps)', () => {
  it.concurrent.each(breaches)(
    '$rule fails the run when $breach',
    async ({ rule, files }) => {
      const { status, output } = await cruise(files);
      expect(status).not.toBe(0);
      expect(rulesNamed(output)).toEqual(typeof rule === 'string' ? [rule] : [...rule].sort());
    },
    30_000,
  );

  it.concurrent.each(allowed)(
    'passes $allowed',
    async ({ files, dependencies }) => {
      const { status, output } = await cruise(files);
      expect(output).toContain('no dependency violations found');
      expect(status).toBe(0);
      expect(dependenciesCruised(output)).toBe(dependencies);
    },
    30_000,
  );
});
