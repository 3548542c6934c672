import { z } from 'zod';
import { describeInputIssues, inputErrorMessage } from './input-errors';

const schema = z.strictObject({
  acceptedTermsAndConditions: z.boolean(),
  nested: z.strictObject({ name: z.string().max(3) }).optional(),
  list: z.array(z.number()).optional(),
});

function refusal(input: unknown): string {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a refusal');
  return describeInputIssues(result.error.issues);
}

describe(describeInputIssues.name, () => {
  it.each<[string, unknown, string]>([
    ['a wrong type', { acceptedTermsAndConditions: 'yes' }, 'acceptedTermsAndConditions: '],
    ['a missing field', {}, 'acceptedTermsAndConditions: '],
    [
      'an unknown key',
      { acceptedTermsAndConditions: true, extra: 1 },
      'extra: not a field of this call',
    ],
    [
      'a nested field',
      { acceptedTermsAndConditions: true, nested: { name: 'longer' } },
      'nested.name: ',
    ],
    ['a list item', { acceptedTermsAndConditions: true, list: [1, 'x'] }, 'list.1: '],
    ['the input as a whole', 'not an object', 'input: '],
  ])('%s', (_name, input, expected) => {
    expect(refusal(input)).toContain(expected);
  });

  it('names every field at fault, separated by "; "', () => {
    const message = refusal({ acceptedTermsAndConditions: 1, extra: true, more: 2 });
    expect(message.split('; ').map((part) => part.split(':')[0])).toEqual([
      'acceptedTermsAndConditions',
      'extra',
      'more',
    ]);
  });

  it('never repeats the value it refused', () => {
    const secret = 'tok-SECRET-value';
    expect(refusal({ acceptedTermsAndConditions: secret })).not.toContain(secret);
    // A key is repeated only when it is plainly a name, never control characters or long text.
    expect(refusal({ acceptedTermsAndConditions: true, [secret]: 1 })).toContain(secret);
    const hostile = `x"\n{"level":60}${'y'.repeat(100)}`;
    const message = refusal({ acceptedTermsAndConditions: true, [hostile]: 1 });
    expect(message).toBe('(an unreadable key): not a field of this call');
  });
});

describe(inputErrorMessage.name, () => {
  it('leaves messages that are not zod refusals alone', () => {
    expect(inputErrorMessage(new Error('x'), 'mutations need the header')).toBe(
      'mutations need the header',
    );
    expect(inputErrorMessage(undefined, 'plain')).toBe('plain');
  });
});
