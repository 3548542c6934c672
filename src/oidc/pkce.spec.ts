import * as client from 'openid-client';
import { pkceChallenge } from './pkce';

describe('pkceChallenge (RFC 7636 §4.2, S256)', () => {
  it.each([
    // RFC 7636 Appendix B.
    ['dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'],
  ])('the challenge of %s is %s', (verifier, challenge) => {
    expect(pkceChallenge(verifier)).toBe(challenge);
  });

  it("agrees with openid-client's own calculation for fresh verifiers", async () => {
    for (let i = 0; i < 20; i++) {
      const verifier = client.randomPKCECodeVerifier();
      expect(pkceChallenge(verifier)).toBe(await client.calculatePKCECodeChallenge(verifier));
    }
  });
});
