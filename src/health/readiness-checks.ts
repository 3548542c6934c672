import type { SessionStore } from '../session/session-store';
import type { ReadinessCheck } from './readiness-check';

export function sessionStoreCheck(store: SessionStore): ReadinessCheck {
  return { name: `sessionStore:${store.kind}`, check: () => store.ping() };
}

/** The external IdP is ready when its discovery document answers and names the configured issuer. */
export function idpDiscoveryCheck(issuer: string, fetchImpl: typeof fetch = fetch): ReadinessCheck {
  return {
    name: 'idpDiscovery',
    async check() {
      const res = await fetchImpl(`${issuer}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(2000),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`discovery answered HTTP ${res.status}`);
      const doc = (await res.json()) as { issuer?: unknown };
      if (doc.issuer !== issuer) throw new Error('discovery document names another issuer');
    },
  };
}
