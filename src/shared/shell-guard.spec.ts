import type { Brand } from './brand';
import {
  AuthUserState,
  SIGNED_OUT,
  ShellGuardReason,
  shellGuard,
  shellSigninUrl,
} from './shell-guard';

const signedIn: AuthUserState = {
  isSignedIn: true,
  isMigrating: false,
  setupMfa: false,
  showSurvey: false,
  collectorsId: 100001,
};

describe(shellGuard.name, () => {
  const table: [
    string,
    AuthUserState,
    { brand?: Brand; promptMfaSignin?: string },
    ShellGuardReason | undefined,
  ][] = [
    ['signed out', SIGNED_OUT, {}, 'not-signed-in'],
    ['signed in, nothing pending', signedIn, {}, undefined],
    ['migrating', { ...signedIn, isMigrating: true }, {}, 'migrating'],
    [
      'migrating wins over set-up',
      { ...signedIn, isMigrating: true, setupMfa: true },
      {},
      'migrating',
    ],
    ['second factor to set up', { ...signedIn, setupMfa: true }, {}, 'setup-mfa'],
    [
      'set-up skipped by promptMfaSignin=false',
      { ...signedIn, setupMfa: true },
      { promptMfaSignin: 'false' },
      undefined,
    ],
    [
      'promptMfaSignin=true still prompts',
      { ...signedIn, setupMfa: true },
      { promptMfaSignin: 'true' },
      'setup-mfa',
    ],
    [
      'set-up skipped for the Japan brand',
      { ...signedIn, setupMfa: true },
      { brand: 'psajapan' },
      undefined,
    ],
    ['set-up for psa', { ...signedIn, setupMfa: true }, { brand: 'psa' }, 'setup-mfa'],
    ['survey with no brand', { ...signedIn, showSurvey: true }, {}, 'survey'],
    ['survey for collectors', { ...signedIn, showSurvey: true }, { brand: 'collectors' }, 'survey'],
    ['survey for psa', { ...signedIn, showSurvey: true }, { brand: 'psa' }, 'survey'],
    ['survey for psamobile', { ...signedIn, showSurvey: true }, { brand: 'psamobile' }, 'survey'],
    ['no survey for pcgs', { ...signedIn, showSurvey: true }, { brand: 'pcgs' }, undefined],
    ['no survey for goldin', { ...signedIn, showSurvey: true }, { brand: 'goldin' }, undefined],
    ['no survey for psajapan', { ...signedIn, showSurvey: true }, { brand: 'psajapan' }, undefined],
    ['set-up before survey', { ...signedIn, setupMfa: true, showSurvey: true }, {}, 'setup-mfa'],
  ];
  it.each(table)('%s', (_name, state, context, expected) => {
    expect(shellGuard(state, context)).toBe(expected);
  });
});

describe(shellSigninUrl.name, () => {
  it('carries r, b, QTM_SID and QTM_UID (§2)', () => {
    expect(
      shellSigninUrl('https://signin.collectors.com', {
        currentUrl: 'https://signin.collectors.com/collection?x=1',
        brand: 'psa',
        qtmSid: 's1',
        qtmUid: 'u1',
      }),
    ).toBe(
      'https://signin.collectors.com/signin?r=https%3A%2F%2Fsignin.collectors.com%2Fcollection%3Fx%3D1&b=psa&QTM_SID=s1&QTM_UID=u1',
    );
    expect(
      shellSigninUrl('http://localhost:3333', { currentUrl: 'http://localhost:3333/collection' }),
    ).toBe('http://localhost:3333/signin?r=http%3A%2F%2Flocalhost%3A3333%2Fcollection');
  });

  it.each([
    ['fr-CA', '&lang=fr-CA'],
    ['ja-JP', '&lang=ja-JP'],
    ['en-CA', '&lang=en-CA'],
    ['en-US', ''],
  ] as const)('carries the page language %s as lang (issue 14 item 2)', (locale, suffix) => {
    expect(
      shellSigninUrl('http://localhost:3333', {
        currentUrl: 'http://localhost:3333/fr-CA/collection',
        locale,
      }),
    ).toBe(
      `http://localhost:3333/signin?r=http%3A%2F%2Flocalhost%3A3333%2Ffr-CA%2Fcollection${suffix}`,
    );
  });
});
