import { LOCALES, type Locale } from '../../src/shared/locale';
import { STEP_VIEWS, fieldsInOrder } from './step-views';

/** The names a step asks for, in the order the page's language asks for them. */
const names = (step: string, locale: Locale) =>
  fieldsInOrder(STEP_VIEWS[step]?.fields ?? [], locale).map((field) => field.name);

describe(fieldsInOrder.name, () => {
  it.each([
    ['CreateAccount', 'en-US', ['givenName', 'familyName', 'newPassword', 'acceptTerms']],
    ['CreateAccount', 'en-CA', ['givenName', 'familyName', 'newPassword', 'acceptTerms']],
    ['CreateAccount', 'fr-CA', ['givenName', 'familyName', 'newPassword', 'acceptTerms']],
    ['CreateAccount', 'ja-JP', ['familyName', 'givenName', 'newPassword', 'acceptTerms']],
    ['EnterNameInfo', 'en-US', ['givenName', 'familyName']],
    ['EnterNameInfo', 'ja-JP', ['familyName', 'givenName']],
    ['EnterPassword', 'ja-JP', ['password']],
  ] as const)('%s in %s: %j', (step, locale, expected) => {
    expect(names(step, locale)).toEqual(expected);
  });

  it.each(LOCALES)('%s keeps each field whole: its autocomplete token moves with it', (locale) => {
    const fields = fieldsInOrder(STEP_VIEWS.EnterNameInfo?.fields ?? [], locale);
    expect(Object.fromEntries(fields.map((f) => [f.name, f.autocomplete]))).toEqual({
      givenName: 'given-name',
      familyName: 'family-name',
    });
  });
});
