import { execFileSync } from 'node:child_process';
import { exportJWK, generateKeyPair, decodeJwt } from 'jose';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { AppConfig } from '../../src/config/app-config';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import {
  BRAND_CALLBACK_PATH,
  BrandSite,
  BrandSiteAddress,
  BrandSiteSession,
  ClientCredentials,
  brandSiteAddress,
  startBrandSite,
} from '../support/brand-site';
import { useChromium } from '../support/chromium';
import type { TokenRequest } from '../support/okta-idp';
import { BRAND_CLIENTS, OKTA_USERS, OktaStack, startOktaStack } from '../support/okta-stack';
import type { Runtime } from '../support/runtimes';
import { until } from '../support/shell-browser';
import { EMAIL } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';
import { productionEnv } from '../support/test-config';

/** Where the brand site and the service run: the brand site's Node, and the service's for qa. */
export interface BrandSiteRuntimes {
  /** The Node binary the brand sites run on. */
  readonly brandSiteNode: string;
  /** The Node and build the service runs on against the Okta-shaped IdP (startOktaStack). */
  readonly service: Runtime;
}

/** A mobile app's callback as qa and prod derive it from its scheme (src/config/brand-directory.ts). */
const APP_CALLBACK = 'psacard://auth/callback';
const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** Journeys post many forms and visit /signin often from one address. */
const GENEROUS_LIMITS = {
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
};

/** One IdP's set-up, as the journey needs it. */
interface Stage {
  /** The service's public URL (SIGNON_URL for the brand sites; the logout tokens' `iss`). */
  readonly signonUrl: string;
  /** The psa brand site, which the collector comes through; it is also psamobile's back end. */
  readonly psa: BrandSite;
  /** The pcgs brand site, registered for back-channel logout, which the collector never visits. */
  readonly pcgs: BrandSite;
  readonly psaClient: ClientCredentials;
  readonly appClient: ClientCredentials;
  readonly collector: {
    readonly email: string;
    readonly collectorsId: number;
    readonly uid?: string;
  };
  /** Types the collector's email and password on the IdP's sign-in page(s). */
  signInAtIdp(page: Page): Promise<void>;
  readonly contextOptions: BrowserContextOptions;
  /** The IdP's record of its token endpoint's requests, where the IdP offers one. */
  tokenRequests?(): Promise<readonly TokenRequest[]>;
}

/**
 * Issue 49 item 8: the reference brand site (examples/brand-site), as a process of its own on
 * another origin, through a collector's whole journey in Chromium, against the embedded IdP (local)
 * and the Okta-shaped one (qa behind TLS): sign-in, its verification of `t`, a refresh with its own
 * client, a second sign-in that retires the earlier grant, an app's code redeemed by an ordinary
 * OAuth call, and sign-out with a logout token for it and none for a brand never visited.
 */
export function brandSiteJourneys(runtimes: () => BrandSiteRuntimes): void {
  const chromium = useChromium();

  describe('against the embedded IdP (APP_ENV=local)', () => {
    const addresses: Partial<Record<'psa' | 'pcgs' | 'psajapan', BrandSiteAddress>> = {};
    const sites: { psa?: BrandSite; pcgs?: BrandSite; psajapan?: BrandSite } = {};
    const t = useTestApp(
      async () => {
        const psa = (addresses.psa = await brandSiteAddress());
        const pcgs = (addresses.pcgs = await brandSiteAddress());
        const psajapan = (addresses.psajapan = await brandSiteAddress());
        return {
          BRAND_URLS: JSON.stringify({
            psa: { tokenURL: `${psa.url}${BRAND_CALLBACK_PATH}` },
            pcgs: { tokenURL: `${pcgs.url}${BRAND_CALLBACK_PATH}` },
            // A web brand that opted in to the one-time code instead of tokens in its URL.
            psajapan: {
              tokenURL: `${psajapan.url}${BRAND_CALLBACK_PATH}`,
              handoff: 'handoff-code',
            },
          }),
          BACKCHANNEL_LOGOUT_URIS: JSON.stringify({
            psa: `${psa.url}/backchannel-logout`,
            psamobile: `${psa.url}/backchannel-logout`,
            pcgs: `${pcgs.url}/backchannel-logout`,
            psajapan: `${psajapan.url}/backchannel-logout`,
          }),
          ...GENEROUS_LIMITS,
        };
      },
      [],
      // psamobile to its scheme, as in qa and prod (in local its tokenURL is the demo brand page).
      (config: AppConfig): AppConfig => ({
        ...config,
        brands: {
          ...config.brands,
          psamobile: { ...config.brands.psamobile, tokenURL: APP_CALLBACK },
        },
      }),
    );
    beforeAll(async () => {
      const clients = t.config.brandClients;
      const common = {
        signonUrl: t.url,
        idpIssuer: t.config.idp.issuer,
        node: runtimes().brandSiteNode,
      };
      sites.psa = await startBrandSite({
        ...common,
        address: required(addresses.psa),
        brand: 'psa',
        client: required(clients.psa),
        app: required(clients.psamobile),
      });
      sites.pcgs = await startBrandSite({
        ...common,
        address: required(addresses.pcgs),
        brand: 'pcgs',
        client: required(clients.pcgs),
      });
      sites.psajapan = await startBrandSite({
        ...common,
        address: required(addresses.psajapan),
        brand: 'psajapan',
        client: required(clients.psajapan),
      });
    }, 30_000);
    afterAll(async () => {
      await sites.psa?.close();
      await sites.pcgs?.close();
      await sites.psajapan?.close();
    });

    it('runs the brand sites on the runtime it names', async () => {
      expect((await required(sites.psa).state()).node).toBe(versionOf(runtimes().brandSiteNode));
    });

    journey(chromium, () => ({
      signonUrl: t.url,
      psa: required(sites.psa),
      pcgs: required(sites.pcgs),
      psaClient: required(t.config.brandClients.psa),
      appClient: required(t.config.brandClients.psamobile),
      collector: { email: EMAIL, collectorsId: 100001 },
      signInAtIdp: signInAtEmbeddedIdp,
      contextOptions: {},
    }));

    it('a brand with "handoff": "handoff-code" (psajapan) receives si and a code, which it redeems with an ordinary OAuth call; its own Sign out', async () => {
      const site = required(sites.psajapan);
      const context = await chromium.browser.newContext();
      try {
        const page = await context.newPage();
        const callbacks: URL[] = [];
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.origin === site.url && url.pathname === BRAND_CALLBACK_PATH) callbacks.push(url);
        });
        await page.goto(`${site.url}/`);
        await page.click('a:text("Sign in")');
        await signInAtEmbeddedIdp(page);
        await page.waitForURL(`${site.url}/account`);
        // No tokens in its URL: si and the code.
        expect(callbacks).toHaveLength(1);
        const callback = required(callbacks[0]);
        expect([...callback.searchParams.keys()].sort()).toEqual(['code', 'r', 'si']);
        const state = await site.state();
        expect(state.redemptions).toEqual([
          { at: expect.any(String), via: 'handoff-code', ok: true },
        ]);
        const si = callback.searchParams.get('si');
        expect(state.sessions).toEqual([
          expect.objectContaining({
            via: 'handoff-code',
            clientId: required(t.config.brandClients.psajapan).clientId,
            si,
            sub: EMAIL,
            collectorsId: 100001,
            verifiedBy: ['jose', '@okta/jwt-verifier'],
          }),
        ]);

        // Its Sign out: its own session first, then the service's sign-out, and back home. The
        // logout token still comes, for a session the site has already ended.
        await page.click('a:text("Sign out")');
        await page.waitForURL(`${site.url}/`);
        expect(await page.textContent('[data-testid="status"]')).toBe('You are not signed in.');
        const after = await until(
          () => site.state(),
          (s) => s.logoutTokens.length > 0,
        );
        expect(after.sessions[0]).toMatchObject({ endedBy: 'signed-out' });
        expect(after.logoutTokens).toEqual([
          expect.objectContaining({
            ok: true,
            endedSessions: 0,
            claims: expect.objectContaining({ sid: si }),
          }),
        ]);
      } finally {
        await context.close();
      }
    }, 90_000);
  });

  describe('against the Okta-shaped IdP (APP_ENV=qa behind TLS, IDP_MODE=external)', () => {
    let stack: OktaStack | undefined;
    const sites: { psa?: BrandSite; pcgs?: BrandSite } = {};
    const user = OKTA_USERS.plain;
    beforeAll(async () => {
      // qa's rules: the brand sites' token and logout URLs are https (a TLS front each, the test
      // authority's certificate for 127.0.0.1).
      const psa = await brandSiteAddress({ tls: true });
      const pcgs = await brandSiteAddress({ tls: true });
      const qaUrls = JSON.parse(productionEnv('qa').BRAND_URLS ?? '{}') as Record<string, object>;
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      stack = await startOktaStack({
        runtime: runtimes().service,
        env: {
          BRAND_URLS: JSON.stringify({
            ...qaUrls,
            psa: { tokenURL: `${psa.url}${BRAND_CALLBACK_PATH}` },
            pcgs: { ...qaUrls.pcgs, tokenURL: `${pcgs.url}${BRAND_CALLBACK_PATH}` },
          }),
          BACKCHANNEL_LOGOUT_URIS: JSON.stringify({
            psa: `${psa.url}/backchannel-logout`,
            psamobile: `${psa.url}/backchannel-logout`,
            pcgs: `${pcgs.url}/backchannel-logout`,
          }),
          // qa signs logout tokens with a key every instance shares.
          SERVICE_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
        },
      });
      const common = {
        signonUrl: stack.url,
        idpIssuer: stack.idp.issuer,
        node: runtimes().brandSiteNode,
      };
      sites.psa = await startBrandSite({
        ...common,
        address: psa,
        brand: 'psa',
        client: required(BRAND_CLIENTS.psa),
        app: required(BRAND_CLIENTS.psamobile),
      });
      sites.pcgs = await startBrandSite({
        ...common,
        address: pcgs,
        brand: 'pcgs',
        client: required(BRAND_CLIENTS.pcgs),
      });
    }, 90_000);
    afterAll(async () => {
      await sites.psa?.close();
      await sites.pcgs?.close();
      await stack?.close();
    });

    it('runs the brand sites and the service on the runtimes it names', async () => {
      const { brandSiteNode, service } = runtimes();
      expect((await required(sites.psa).state()).node).toBe(versionOf(brandSiteNode));
      const metrics = await (await fetch(`${required(stack).app.managementUrl}/metrics`)).text();
      expect(metrics).toMatch(
        new RegExp(`^nodejs_version_info\\{version="${versionOf(service.node)}"`, 'm'),
      );
    });

    journey(chromium, () => {
      const okta = required(stack);
      return {
        signonUrl: okta.url,
        psa: required(sites.psa),
        pcgs: required(sites.pcgs),
        psaClient: required(BRAND_CLIENTS.psa),
        appClient: required(BRAND_CLIENTS.psamobile),
        collector: { email: user.email, collectorsId: Number(user.collectorsId), uid: user.uid },
        // Okta's hosted sign-in page: one form, username and password.
        signInAtIdp: async (page) => {
          await page.waitForSelector('input[name="username"]');
          await page.fill('input[name="username"]', user.email);
          await page.fill('input[name="password"]', user.password);
          await page.click('button[type="submit"]');
        },
        // The test authority signs the service's, the IdP's and the brand sites' certificates: the
        // collector's browser trusts them as it trusts a real authority.
        contextOptions: { ignoreHTTPSErrors: true },
        tokenRequests: () => okta.idp.tokenRequests(),
      };
    });
  });
}

/** The journey itself, one step a test, in order, for one IdP's stage. */
function journey(chromium: ReturnType<typeof useChromium>, stageOf: () => Stage): void {
  let stage: Stage;
  let context: BrowserContext;
  let page: Page;
  /** The brand site's callback URLs Chromium requested, in order (with si, t, rt, r). */
  const callbacks: URL[] = [];
  let first: BrandSiteSession;
  let again: BrandSiteSession;
  let uid: string;

  beforeAll(async () => {
    stage = stageOf();
    context = await chromium.browser.newContext(stage.contextOptions);
    page = await context.newPage();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === stage.psa.url && url.pathname === BRAND_CALLBACK_PATH) callbacks.push(url);
    });
  });
  afterAll(() => context?.close());

  /** The brand site's one session matching `pick`, once there is one. */
  async function sessionWhere(pick: (s: BrandSiteSession) => boolean): Promise<BrandSiteSession> {
    const state = await until(
      () => stage.psa.state(),
      (s) => s.sessions.some(pick),
    );
    return required(state.sessions.find(pick));
  }

  it('signs a collector in from the brand site’s link: the first sign-in lands on it, which verified t', async () => {
    await page.goto(`${stage.psa.url}/`);
    await page.click('a:text("Sign in")');
    await stage.signInAtIdp(page);
    await page.waitForURL(`${stage.psa.url}/account`);

    // One visit to its callback, first time (no second visit), with si, t and rt, and r.
    expect(callbacks).toHaveLength(1);
    const callback = required(callbacks[0]);
    const t = decodeJwt(callback.searchParams.get('t') ?? '');
    expect(callback.searchParams.get('rt')).toBeTruthy();
    expect(callback.searchParams.get('r')).toBe(`${stage.psa.url}/account`);
    uid = String(t.uid);
    if (stage.collector.uid) expect(uid).toBe(stage.collector.uid);
    // t was issued to psa's own client; sub is the login, uid the user id.
    expect(t).toMatchObject({ cid: stage.psaClient.clientId, sub: stage.collector.email });

    // The site keyed its session on uid, kept si, and verified t both ways.
    first = await sessionWhere(() => true);
    expect(first).toMatchObject({
      uid,
      sub: stage.collector.email,
      collectorsId: stage.collector.collectorsId,
      si: callback.searchParams.get('si'),
      via: 'tokens-in-url',
      clientId: stage.psaClient.clientId,
      verifiedBy: ['jose', '@okta/jwt-verifier'],
      accessTokenJti: t.jti,
    });
    // And its page says who is signed in.
    expect(await page.textContent('[data-claim="uid"]')).toBe(uid);
    expect(await page.textContent('[data-claim="CollectorsId"]')).toBe(
      String(stage.collector.collectorsId),
    );
    expect(await page.textContent('[data-claim="sub"]')).toBe(stage.collector.email);
  }, 90_000);

  it('refreshes with its own client at the IdP: 200, a new access token', async () => {
    await page.click('button:text("Refresh the access token")');
    await page.waitForSelector('[data-testid="refresh"]');
    expect(await page.textContent('[data-testid="refresh"]')).toContain('HTTP 200');
    const refreshed = await sessionWhere((s) => s.id === first.id);
    expect(refreshed.refreshes).toEqual([
      expect.objectContaining({ status: 200, previousJti: first.accessTokenJti }),
    ]);
    expect(refreshed.refreshes[0]?.accessTokenJti).not.toBe(first.accessTokenJti);
    if (stage.tokenRequests)
      expect(await stage.tokenRequests()).toContainEqual(
        expect.objectContaining({
          grant_type: 'refresh_token',
          client_id: stage.psaClient.clientId,
          status: 200,
        }),
      );
  }, 60_000);

  it('signs in again through /signin?b=psa: a new session, and the earlier refresh token is refused (invalid_grant)', async () => {
    const back = `${stage.psa.url}/account`;
    await page.goto(`${stage.signonUrl}/signin?b=psa&r=${encodeURIComponent(back)}`);
    await page.waitForURL(back);
    expect(callbacks).toHaveLength(2);
    again = await sessionWhere((s) => s.id !== first.id);
    expect(again).toMatchObject({ uid, via: 'tokens-in-url' });
    expect(again.si).toBe(callbacks[1]?.searchParams.get('si'));
    expect(again.si).not.toBe(first.si);
    expect(await sessionWhere((s) => s.id === first.id)).toMatchObject({
      endedBy: 'signed-in-again',
    });
    // The refresh token the site held for the first session (rotated by its own refresh since): the
    // service revoked the grant when psa received new tokens in this browser.
    expect(await stage.psa.refreshSession(first.id)).toEqual({
      status: 400,
      error: 'invalid_grant',
    });
  }, 60_000);

  it('signs out elsewhere (the Collectors site): the logout token reaches the brand site, verifies (sub = t’s uid, sid = its si) and ends its session', async () => {
    await page.goto(`${stage.signonUrl}/logout/collectorsid?b=collectors`);
    // A typed or pasted sign-out URL (no Referer) asks first (issue 50 item 4): the collector confirms.
    await page.click('button[type="submit"]');
    // Signed out, the browser ends on the IdP's sign-in page (the Collectors site's sign-in).
    await page.waitForURL(/\/idp\/signin\/|\/interaction\//);
    const state = await until(
      () => stage.psa.state(),
      (s) => s.logoutTokens.some((token) => token.claims?.sid === again.si),
    );
    const token = required(state.logoutTokens.find((each) => each.claims?.sid === again.si));
    expect(token).toMatchObject({
      ok: true,
      endedSessions: 1,
      header: { typ: 'logout+jwt', alg: 'RS256' },
      claims: {
        iss: stage.signonUrl,
        aud: stage.psaClient.clientId,
        sub: uid,
        sid: again.si,
        events: { [BACKCHANNEL_EVENT]: {} },
      },
    });
    expect(token.claims).not.toHaveProperty('nonce');
    // Every logout token the site received verified (none refused as a replay or forgery).
    expect(state.logoutTokens.filter((each) => !each.ok)).toEqual([]);
    expect(state.sessions.find((s) => s.id === again.id)).toMatchObject({
      endedBy: 'back-channel-logout',
    });
    await page.goto(`${stage.psa.url}/`);
    expect(await page.textContent('[data-testid="status"]')).toBe('You are not signed in.');
  }, 60_000);

  it('a brand site the collector never came through (pcgs) gets no logout token', async () => {
    // The deliveries of one sign-out go out together: psa's has arrived, so would pcgs's have.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pcgs = await stage.pcgs.state();
    expect(pcgs.logoutTokens).toEqual([]);
    expect(pcgs.sessions).toEqual([]);
  });

  it('redeems an app’s one-time code (psamobile) with an ordinary OAuth call, once', async () => {
    // The app's sign-in in its own browser; Chromium cannot open psacard://, the test catches it
    // and hands the code to the app's back end (the psa brand site), as the app would.
    const app = await chromium.browser.newContext(stage.contextOptions);
    try {
      const appPage = await app.newPage();
      const appNavigations: string[] = [];
      appPage.on('request', (request) => {
        if (request.isNavigationRequest() && request.url().startsWith('psacard:'))
          appNavigations.push(request.url());
      });
      await appPage.goto(`${stage.signonUrl}/signin?b=psamobile`);
      await stage.signInAtIdp(appPage);
      await until(
        () => Promise.resolve(appNavigations.length),
        (n) => n > 0,
      );
      const target = new URL(required(appNavigations[0]));
      expect(`${target.protocol}//${target.host}${target.pathname}`).toBe(APP_CALLBACK);
      expect(target.searchParams.has('t')).toBe(false);
      const code = target.searchParams.get('code') ?? '';

      const redeemed = await stage.psa.redeemAppCode(code);
      expect(redeemed).toEqual({
        status: 200,
        body: expect.objectContaining({
          uid,
          sub: stage.collector.email,
          CollectorsId: stage.collector.collectorsId,
          verified_by: ['jose', '@okta/jwt-verifier'],
        }),
      });
      const session = await sessionWhere((s) => s.via === 'app');
      expect(session).toMatchObject({ uid, clientId: stage.appClient.clientId });
      // One time only.
      expect(await stage.psa.redeemAppCode(code)).toEqual({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    } finally {
      await app.close();
    }
  }, 90_000);
}

/** Email, then password, on the embedded IdP's steps, as a person types them. */
async function signInAtEmbeddedIdp(page: Page): Promise<void> {
  await page.waitForURL(/\/idp\/signin\//);
  await page.fill('#field-email', EMAIL);
  await page.click('button[value="submit"]');
  await page.waitForSelector('#field-password');
  await page.fill('#field-password', DEMO_PASSWORD);
  await page.click('button[value="submit"]');
}

/** `node --version` of a Node binary. */
function versionOf(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
}

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('not set up (a hook failed?)');
  return value;
}
