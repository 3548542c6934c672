// The brand site's configuration: environment variables, read here once and nowhere else. A missing
// or malformed value stops the start with one message that names every offending variable.

/**
 * @typedef {object} ClientCredentials
 * @property {string} clientId
 * @property {string} clientSecret
 */

/**
 * @typedef {object} BrandSiteConfig
 * @property {string} brand The brand code this site is, as the sign-on service knows it (`psa`).
 * @property {string} signonUrl The sign-on service's public URL (its PUBLIC_URL), no trailing slash.
 * @property {string} idpIssuer The identity provider's issuer (the service's IDP_ISSUER).
 * @property {string} audience The `aud` every `t` must carry (the service's IDP_AUDIENCE).
 * @property {ClientCredentials} client This brand's own client at the IdP (BRAND_CLIENTS[brand]).
 * @property {ClientCredentials | undefined} app The brand's mobile app's client, when this back end
 *   also redeems the app's handoff codes (BRAND_CLIENTS[<the app's brand>]).
 * @property {string} host The interface to listen on.
 * @property {number} port The port to listen on.
 * @property {string} siteUrl This site's own public origin, as BRAND_URLS names it at the service.
 * @property {boolean} testHooks Whether GET /__state and the test actions answer (tests only).
 */

const trimSlash = (url) => url.replace(/\/+$/, '');

/**
 * Reads the configuration from `env` (process.env by default).
 * @param {Record<string, string | undefined>} env
 * @returns {BrandSiteConfig}
 */
export function readConfig(env = process.env) {
  const problems = [];
  const text = (name) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const required = (name) => {
    const value = text(name);
    if (!value) problems.push(`${name} is required`);
    return value ?? '';
  };
  const url = (name, value) => {
    if (!value) return '';
    try {
      const parsed = new URL(value);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('scheme');
      return trimSlash(parsed.href);
    } catch {
      problems.push(`${name} must be an http(s) URL (got ${JSON.stringify(value)})`);
      return '';
    }
  };

  const brand = required('BRAND');
  if (brand && !/^[a-z][a-z0-9]{1,31}$/.test(brand))
    problems.push('BRAND must be a brand code such as psa or pcgs');
  const signonUrl = url('SIGNON_URL', required('SIGNON_URL'));
  // With the embedded IdP (local and dev) the issuer lives under the service itself.
  const idpIssuer = url(
    'IDP_ISSUER',
    text('IDP_ISSUER') ?? (signonUrl ? `${signonUrl}/oauth2/default` : ''),
  );
  const client = { clientId: required('CLIENT_ID'), clientSecret: required('CLIENT_SECRET') };
  const appId = text('APP_CLIENT_ID');
  const appSecret = text('APP_CLIENT_SECRET');
  if (Boolean(appId) !== Boolean(appSecret))
    problems.push('APP_CLIENT_ID and APP_CLIENT_SECRET go together');
  const port = Number(text('PORT') ?? '4000');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push('PORT must be a port number');
  const host = text('HOST') ?? '127.0.0.1';
  const siteUrl = url('BRAND_SITE_URL', text('BRAND_SITE_URL') ?? `http://${host}:${port}`);

  if (problems.length > 0) {
    throw new Error(`The brand site cannot start:\n- ${problems.join('\n- ')}`);
  }
  return {
    brand,
    signonUrl,
    idpIssuer,
    audience: text('AUDIENCE') ?? 'api://default',
    client,
    app: appId && appSecret ? { clientId: appId, clientSecret: appSecret } : undefined,
    host,
    port,
    siteUrl,
    testHooks: env.BRAND_SITE_TEST === '1',
  };
}
