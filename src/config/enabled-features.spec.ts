import { MAX_FEATURES, parseEnabledFeatures } from './enabled-features';

describe(parseEnabledFeatures.name, () => {
  // §5 "Enabled-features data must be a list of strings, else it is treated as empty."
  const lists: [string, string | undefined, string[]][] = [
    ['no variable', undefined, []],
    ['an empty value', '', []],
    ['blanks', '   ', []],
    ['one name', 'gettingStarted', ['gettingStarted']],
    [
      'comma-separated names',
      'gettingStarted, vault-2,new_header',
      ['gettingStarted', 'vault-2', 'new_header'],
    ],
    ['empty entries between commas', 'a,,b,', ['a', 'b']],
    ['a JSON array of strings', '["gettingStarted","vault"]', ['gettingStarted', 'vault']],
    ['an empty JSON array', '[]', []],
    ['a JSON array with blanks around it', '  ["a"]  ', ['a']],
  ];
  it.each(lists)('%s gives its list', (_name, raw, features) => {
    expect(parseEnabledFeatures(raw)).toEqual({ ok: true, features });
  });

  const malformed: [string, string, string][] = [
    ['text that is no list', 'not json', 'entry 0 ("not json") is not a feature name'],
    ['broken JSON', '["a",', 'not valid JSON'],
    ['a JSON object', '{"a":1}', 'not a list of strings (a JSON array)'],
    ['an array of numbers', '[1,2]', 'entry 0 is not a string'],
    ['an array with one non-string', '["a",null]', 'entry 1 is not a string'],
    ['a nested array', '[["a"]]', 'entry 0 is not a string'],
    ['a string that is no feature name', '["a b"]', 'entry 0 ("a b") is not a feature name'],
    ['a name starting with a digit', 'gettingStarted,1up', 'entry 1 ("1up") is not a feature name'],
    [
      'too many names',
      JSON.stringify(Array.from({ length: MAX_FEATURES + 1 }, (_, i) => `f${i}`)),
      `more than ${MAX_FEATURES} names`,
    ],
  ];
  it.each(malformed)('%s is treated as empty, naming the problem', (_name, raw, problem) => {
    const parsed = parseEnabledFeatures(raw);
    expect(parsed.features).toEqual([]);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problem).toContain(problem);
  });
});
