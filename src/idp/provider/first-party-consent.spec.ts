import { consentHasWork } from './first-party-consent';

describe(consentHasWork.name, () => {
  it.each([
    // the authorization's parameters | the interaction's last result | the pages have work
    ['a brand hop, silent, nothing asked', {}, undefined, false],
    ['a pending step asked for, known collector', { pending_step: 'setup-mfa' }, undefined, true],
    ['a pending step this IdP does not know', { pending_step: 'teleport' }, undefined, false],
    ['just signed in, nothing put off', {}, { login: { accountId: 'a' }, putOff: [] }, false],
    [
      'just signed in, MFA set-up put off',
      {},
      { login: { accountId: 'a' }, putOff: ['setupMfa'] },
      true,
    ],
    [
      'just signed in with a pending step asked (the sign-in offered it)',
      { pending_step: 'setup-mfa' },
      { login: { accountId: 'a' } },
      false,
    ],
    ['just signed in, a put-off list it does not know', {}, { login: {}, putOff: ['x'] }, false],
  ])('%s', (_case, params, result, expected) => {
    expect(consentHasWork(params, result)).toBe(expected);
  });
});
