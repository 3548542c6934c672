import { bindingHashOf, matchesBinding } from './browser-binding';

describe(matchesBinding.name, () => {
  const binding = 'b'.repeat(43);
  const kept = bindingHashOf(binding);
  it.each([
    ['the browser that holds the binding', kept, binding, true],
    ['another browser’s binding', kept, 'c'.repeat(43), false],
    ['no binding cookie', kept, undefined, false],
    ['an empty binding cookie', kept, '', false],
    ['a binding that is not text', kept, ['x'], false],
    ['a record without a binding (a brand’s si)', undefined, binding, false],
  ])('%s: %s', (_name, hash, presented, expected) => {
    expect(matchesBinding(hash, presented)).toBe(expected);
  });

  it('keeps a hash, never the binding', () => {
    expect(kept).not.toContain(binding);
    expect(kept).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
