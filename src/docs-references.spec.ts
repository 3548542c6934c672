import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * Issue 34 item 2: the documentation names the code, and the names must stay true. The walk in
 * docs/architecture.md and the tables of docs/spec-conformance.md write every reference as
 * `path/to/file.ts:Name` (a class, function, const, interface or type), `path:Class.member` (a
 * method or property of a class or interface, a property of a const's object or of an object a
 * function builds) or `path:"text"` (a test whose name, or any text of the file, holds it). Every
 * markdown link of the README and docs/ must reach a file, and a `#anchor` a heading of it.
 */
const ROOT = resolve(__dirname, '..');
const CODE_DOCS = ['docs/architecture.md', 'docs/spec-conformance.md'];

/** Every name a file declares, qualified as the documentation writes it. */
export function declaredNames(file: string, text: string): Set<string> {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const names = new Set<string>();
  const nameOf = (node: ts.Node): string | undefined => {
    const name = (node as { name?: ts.Node }).name;
    return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
  };
  /** Property and method names of every object literal under `node`, as `owner.name`. */
  const objectMembers = (owner: string, node: ts.Node): void => {
    const visit = (n: ts.Node): void => {
      if (ts.isObjectLiteralExpression(n))
        for (const p of n.properties) {
          const name = nameOf(p);
          if (name) names.add(`${owner}.${name}`);
        }
      ts.forEachChild(n, visit);
    };
    visit(node);
  };
  const declare = (statement: ts.Statement): void => {
    if (
      ts.isClassDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isEnumDeclaration(statement)
    ) {
      const owner = nameOf(statement);
      if (!owner) return;
      names.add(owner);
      for (const member of statement.members) {
        const name = nameOf(member);
        if (name) names.add(`${owner}.${name}`);
      }
    } else if (ts.isFunctionDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      const name = nameOf(statement);
      if (!name) return;
      names.add(name);
      if (ts.isFunctionDeclaration(statement) && statement.body)
        objectMembers(name, statement.body);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const name = nameOf(declaration);
        if (!name) continue;
        names.add(name);
        if (declaration.initializer) objectMembers(name, declaration.initializer);
      }
    }
  };
  source.statements.forEach(declare);
  return names;
}

export interface CodeReference {
  readonly doc: string;
  readonly file: string;
  readonly name: string;
}

const REFERENCE =
  /`((?:src|views|client|test|scripts|bench)\/[\w./-]+\.(?:tsx?|js|cjs|mjs)):([^`]+)`/g;

export function codeReferences(doc: string, text: string): CodeReference[] {
  return [...text.matchAll(REFERENCE)].map((m) => ({ doc, file: m[1]!, name: m[2]! }));
}

/** Why a reference does not hold, or undefined when it does. */
export function referenceProblem(ref: CodeReference, root = ROOT): string | undefined {
  const path = join(root, ref.file);
  if (!existsSync(path)) return `${ref.doc}: ${ref.file} does not exist`;
  const text = readFileSync(path, 'utf8');
  if (ref.name.startsWith('"')) {
    const quoted = /^"(.+)"$/.exec(ref.name)?.[1];
    if (!quoted) return `${ref.doc}: ${ref.file}:${ref.name} is not a "quoted" text`;
    return text.includes(quoted) ? undefined : `${ref.doc}: ${ref.file} has no text "${quoted}"`;
  }
  return declaredNames(ref.file, text).has(ref.name)
    ? undefined
    : `${ref.doc}: ${ref.file} declares no ${ref.name}`;
}

/** Repository paths written as code (`src/x/y.ts`) must exist too, references or not. */
const PLAIN_PATH =
  /`((?:src|views|client|test|scripts|bench|deploy|locales|docs)\/[\w./-]+\.(?:tsx?|js|cjs|mjs|md|json|ya?ml|css))`/g;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** Every broken relative link or anchor of one markdown file. */
export function linkProblems(doc: string, root = ROOT): string[] {
  const text = readFileSync(join(root, doc), 'utf8');
  const outsideFences = text
    .split(/^\s*```[^\n]*\n[\s\S]*?^\s*```\s*$/m)
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...outsideFences.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!),
    ...[...outsideFences.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!),
  ];
  const problems: string[] = [];
  for (const target of targets) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path = '', anchor] = target.split('#', 2);
    const file = path === '' ? join(root, doc) : resolve(dirname(join(root, doc)), path);
    if (!existsSync(file)) {
      problems.push(`${doc}: ${target} reaches no file`);
      continue;
    }
    if (anchor === undefined || !file.endsWith('.md')) continue;
    if (!headingAnchors(readFileSync(file, 'utf8')).has(anchor))
      problems.push(`${doc}: ${target} names no heading of ${relative(root, file)}`);
  }
  return problems;
}

const MARKDOWN = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the documentation names code that exists', () => {
  it.each(CODE_DOCS)('%s: every file:name reference is declared where it says', (doc) => {
    const refs = codeReferences(doc, readFileSync(join(ROOT, doc), 'utf8'));
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.map((r) => referenceProblem(r)).filter(Boolean)).toEqual([]);
  });

  it.each(CODE_DOCS)('%s: every repository path it writes as code exists', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const missing = [...text.matchAll(PLAIN_PATH)]
      .map((m) => m[1]!)
      .filter((p) => !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it('a wrong name, a wrong file or a missing test text is reported', () => {
    const doc = 'docs/architecture.md';
    const at = (file: string, name: string) => referenceProblem({ doc, file, name });
    expect(at('src/auth/signin.service.ts', 'SigninService.start')).toBeUndefined();
    expect(at('src/auth/signin.service.ts', 'SigninService.startt')).toMatch(/declares no/);
    expect(at('src/auth/signin.service.ts', 'Sessions.delete')).toMatch(/declares no/);
    expect(at('src/auth/signin.servic.ts', 'SigninService')).toMatch(/does not exist/);
    expect(
      at('src/idp/provider/oidc-configuration.ts', 'oidcConfiguration.loadExistingGrant'),
    ).toBeUndefined();
    expect(at('src/auth/journey.spec.ts', '"no such test name at all"')).toMatch(/no text/);
  });
});

describe('the documentation links resolve', () => {
  it.each(MARKDOWN)('%s: every relative link reaches a file, every #anchor a heading', (doc) => {
    expect(linkProblems(doc)).toEqual([]);
  });

  it('anchors are computed as GitHub computes them', () => {
    const anchors = headingAnchors(
      '# A\n## 3. What a brand may do with `t` and `rt`\n```\n# not a heading\n```\n## Where each §2 header label shows\n## A\n',
    );
    expect([...anchors]).toEqual([
      'a',
      '3-what-a-brand-may-do-with-t-and-rt',
      'where-each-2-header-label-shows',
      'a-1',
    ]);
  });
});
