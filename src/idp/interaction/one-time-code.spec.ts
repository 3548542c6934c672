import { oneTimeCode } from './signin-steps';

/**
 * A one-time code as collectors paste or type it (docs/embedded-idp.md). The spaces and dashes
 * that mail, SMS and authenticator apps group its digits with are not part of it.
 */
describe(oneTimeCode.name, () => {
  const table: [unknown, ReturnType<typeof oneTimeCode>, string][] = [
    ['528103', { value: '528103' }, 'as sent'],
    ['528 103', { value: '528103' }, 'grouped by a space'],
    ['528-103', { value: '528103' }, 'grouped by a dash'],
    [' 528 - 103 ', { value: '528103' }, 'spaces around and inside'],
    ['5 2 8 1 0 3', { value: '528103' }, 'every digit apart'],
    ['528\u00a0103', { value: '528103' }, 'a no-break space, as a mail may show it'],
    ['528\u2013103', { value: '528103' }, 'an en dash, as a word processor makes one'],
    ['528 1034', { error: 'tooLong' }, 'seven digits'],
    ['', { error: 'required' }, 'empty'],
    [' - ', { error: 'required' }, 'nothing but separators'],
    [['528103', '528103'], { error: 'required' }, 'a repeated field'],
  ];
  it.each(table)('%j → %j (%s)', (code, expected) => {
    expect(oneTimeCode({ code })).toEqual(expected);
  });
});
