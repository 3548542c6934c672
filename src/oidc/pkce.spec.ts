import { randomBytes, webcrypto } from 'node:crypto';
import { pkceChallenge } from './pkce';

describe('pkceChallenge (RFC 7636 §4.2, S256)', () => {
  it.each([
    // RFC 7636 Appendix B.
    ['dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'],
  ])('the challenge of %s is %s', (verifier, challenge) => {
    expect(pkceChallenge(verifier)).toBe(challenge);
  });

  it('agrees with WebCrypto’s digest (what openid-client uses) for fresh 43-character verifiers', async () => {
    for (let i = 0; i < 20; i++) {
      const verifier = randomBytes(32).toString('base64url');
      const digest = await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
      expect(pkceChallenge(verifier)).toBe(Buffer.from(digest).toString('base64url'));
    }
  });
});
