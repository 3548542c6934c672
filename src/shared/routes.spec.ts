import { sameOriginPath, samePath } from './routes';

/** The whole bypass table runs against it in test/integration/attack-own-paths.spec.ts. */
describe(sameOriginPath.name, () => {
  const table: [string, string][] = [
    ['/collection?x=1', '/collection?x=1'],
    ['/fr-CA/collection', '/fr-CA/collection'],
    ['//evil.com/x?t=a', '/evil.com/x?t=a'],
    ['/%2e//evil.com/x?t=a', '/evil.com/x?t=a'],
    ['/./\\evil.com', '/evil.com'],
    ['/\\\\evil.com', '/evil.com'],
    ['/a/../..//evil.com', '/evil.com'],
    ['/x#frag', '/x'],
  ];
  it.each(table)('%s -> %s', (target, expected) => {
    expect(sameOriginPath(target)).toBe(expected);
  });
});

describe(samePath.name, () => {
  it('collapses leading slashes and backslashes', () => {
    expect(samePath('//evil.com', '?a=1')).toBe('/evil.com?a=1');
    expect(samePath('/\\evil.com', '')).toBe('/evil.com');
  });
});
