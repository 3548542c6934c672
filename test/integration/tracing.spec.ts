import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Browser, BrowserResponse } from '../support/browser';
import { startOtlpReceiver, OtlpReceiver, ReceivedSpan } from '../support/otlp-receiver';
import {
  ProcessApp,
  buildApp,
  eventually,
  removeBuild,
  startProcessApp,
} from '../support/process-app';
import { throughBrandGrant, throughIdp, signOutFromThisSite } from '../support/signin-journey';

/**
 * Issue 17 item 2: OpenTelemetry traces, from the service as `npm start` runs it (a child process of
 * its compiled build) to a real OTLP/HTTP receiver (test/support/otlp-receiver.ts, protobuf as the
 * exporter sends by default). A probe preloaded into the process lists the OpenTelemetry modules it
 * loaded, so that "nothing is loaded when tracing is off" is checked, not assumed.
 */

const PROBE = path.resolve(__dirname, '../support/loaded-modules-probe.js');
/** The version package.json names, read here rather than through the service's own code. */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

let main: string;
beforeAll(() => {
  main = buildApp();
}, 180_000);
afterAll(() => removeBuild(main));

interface SignedIn {
  readonly app: ProcessApp;
  readonly landing: BrowserResponse;
  /** The OpenTelemetry files (and our otel-tracer.js) the process had loaded when it exited. */
  readonly loadedModules: string[];
}

/**
 * What a process loaded of tracing: the @opentelemetry packages, and `otel-tracer` for our own
 * module. @opentelemetry/api is loaded by prom-client whatever tracing says (its default process
 * metrics require it, for exemplars): a no-op API without an SDK, there before issue 17.
 */
function tracingPackages(loaded: readonly string[]): string[] {
  const names = loaded.map((file) =>
    file.endsWith('otel-tracer.js')
      ? 'otel-tracer'
      : (/node_modules\/(@opentelemetry\/[^/]+)\//.exec(file)?.[1] ?? file),
  );
  return [...new Set(names)].sort();
}

/**
 * Starts the service, signs a collector in from PSA's link (to the brand redirect), and stops it;
 * `afterSignin` runs before the stop.
 */
async function signInOnce(
  env: Record<string, string>,
  afterSignin: (app: ProcessApp, browser: Browser) => Promise<void> = () => Promise.resolve(),
): Promise<SignedIn> {
  const probeOut = path.join(os.tmpdir(), `loaded-modules-${randomUUID()}.txt`);
  const app = await startProcessApp(main, {
    ...env,
    NODE_OPTIONS: `--require ${PROBE}`,
    LOADED_MODULES_PROBE_OUT: probeOut,
  });
  try {
    const browser = new Browser();
    const start = await browser.get(`${app.url}/signin?b=psa`);
    const landing = await throughBrandGrant(
      browser,
      await browser.get((await throughIdp(browser, start)).href),
    );
    await afterSignin(app, browser);
    // SIGTERM: a graceful shutdown, which exports the spans still buffered before the exit.
    app.child.kill('SIGTERM');
    expect(await app.exit).toEqual({ code: 0, signal: null });
    const loaded = readFileSync(probeOut, 'utf8');
    return { app, landing, loadedModules: loaded ? loaded.split('\n') : [] };
  } finally {
    await app.kill();
  }
}

/** A brand's back-channel logout endpoint: answers 200 and keeps the traceparent of each POST. */
async function startBrandEndpoint(): Promise<{
  url: string;
  traceparents: string[];
  close: () => Promise<void>;
}> {
  const traceparents: string[] = [];
  const server = http.createServer((req, res) => {
    traceparents.push(String(req.headers.traceparent));
    req.resume().on('end', () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel-logout`,
    traceparents,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('tracing on: OTEL_EXPORTER_OTLP_ENDPOINT set (issue 17 item 2)', () => {
  let receiver: OtlpReceiver;
  let brand: Awaited<ReturnType<typeof startBrandEndpoint>>;
  let run: SignedIn;
  let spans: ReceivedSpan[];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    brand = await startBrandEndpoint();
    run = await signInOnce(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'signon-under-test',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ci,service.namespace=collectors',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ psa: brand.url }),
      },
      // Then signs out, which sends PSA a logout token over the back channel.
      async (app, browser) => {
        await signOutFromThisSite(browser, `${app.url}/logout/collectorsid?b=psa`);
        await eventually('the logout token delivered', () =>
          Promise.resolve(brand.traceparents.length > 0),
        );
      },
    );
    spans = receiver.spans;
  }, 90_000);
  afterAll(async () => {
    await receiver.close();
    await brand.close();
  });

  const serverSpan = (urlPath: string): ReceivedSpan => {
    const span = spans.find((s) => s.kind === 'server' && s.attributes['url.path'] === urlPath);
    if (!span) throw new Error(`no server span for ${urlPath}`);
    return span;
  };

  it('shows one sign-in as one trace: /signin, then its landing with the token exchange inside, ending in the brand redirect', () => {
    expect(run.landing.status).toBe(302);
    const brandRedirect = new URL(run.landing.headers.get('location') ?? '');
    expect(brandRedirect.searchParams.has('si')).toBe(true);

    const signin = serverSpan('/signin');
    expect(signin.name).toBe('GET /signin');
    expect(signin.parentSpanId).toBeUndefined();
    const trace = spans.filter((s) => s.traceId === signin.traceId);
    const child = (parent: ReceivedSpan, match: (s: ReceivedSpan) => boolean) => {
      const found = trace.find((s) => s.parentSpanId === parent.spanId && match(s));
      if (!found)
        throw new Error(
          `no such child of ${parent.name} in\n${trace.map((s) => `${s.name} ${s.spanId} < ${s.parentSpanId}`).join('\n')}`,
        );
      return found;
    };
    // The browser's trip through the IdP carries no trace context: the landing continues the trace
    // its /signin started (saved with the login state). It sends the browser back to the IdP for
    // PSA's own grant (issue 31 item 4), whose landing continues the first and ends in the brand
    // redirect.
    const landing = child(signin, (s) => s.name === 'signin.landing');
    expect(landing.attributes).toMatchObject({
      'signon.brand': 'psa',
      'signon.redirect_to': expect.stringMatching(/\/oauth2\/default\/v1\/authorize$/),
    });
    const grantLanding = child(landing, (s) => s.name === 'signin.landing');
    expect(grantLanding.attributes).toMatchObject({
      'signon.brand': 'psa',
      'signon.redirect_to': `${brandRedirect.origin}${brandRedirect.pathname}`,
    });
    child(grantLanding, (s) => s.name === 'idp.exchange_code');
    const exchange = child(landing, (s) => s.name === 'idp.exchange_code');
    const tokenRequest = child(
      exchange,
      (s) => s.kind === 'client' && String(s.attributes['url.full']).endsWith('/v1/token'),
    );
    expect(tokenRequest.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
    });
    // The embedded IdP is this same service: it received the trace context and continued it.
    const tokenEndpoint = child(tokenRequest, (s) => s.kind === 'server');
    expect(tokenEndpoint.attributes['url.path']).toBe('/oauth2/default/v1/token');
    // The new session is written inside the landing, in the same trace: its record and index
    // entries in one batch (Sessions.create).
    expect(trace.filter((s) => s.name === 'writeAll')).toEqual([
      expect.objectContaining({
        attributes: expect.objectContaining({ 'db.operation.name': 'writeAll' }),
      }),
    ]);

    // Each landing request's own span answered; each is linked both ways with the span whose trace
    // it continued (the /signin, then the first landing).
    const landingRequests = spans.filter(
      (s) => s.kind === 'server' && s.attributes['url.path'] === '/handleloginredirect',
    );
    expect(landingRequests).toHaveLength(2);
    for (const [resumed, from] of [
      [landing, signin],
      [grantLanding, landing],
    ] as const) {
      const request = landingRequests.find((r) => resumed.links.some((l) => l.spanId === r.spanId));
      expect(request).toMatchObject({ name: 'GET /handleloginredirect' });
      expect(request?.attributes['http.response.status_code']).toBe(302);
      expect(request?.links).toContainEqual({ traceId: signin.traceId, spanId: from.spanId });
    }
  });

  it('traces the session store and the IdP calls as client spans of the request', () => {
    const signin = serverSpan('/signin');
    const store = spans.filter(
      (s) => s.parentSpanId === signin.spanId && s.attributes['db.system.name'] === 'sqlite',
    );
    // The login state it saves (OneTimeStore under login:) and the rate-limit counters.
    expect(store.map((s) => s.name)).toEqual(
      expect.arrayContaining(['set login', 'increment ratelimit']),
    );
    for (const s of store) {
      expect(s.kind).toBe('client');
      // The key's namespace only: never a key, which would name a session.
      for (const key of Object.keys(s.attributes))
        expect(['db.collection.name', 'db.operation.name', 'db.system.name']).toContain(key);
    }
    const exchange = spans.find((s) => s.name === 'idp.exchange_code');
    expect(exchange?.attributes['server.address']).toBe('localhost');
  });

  it('traces a back-channel delivery in the sign-out that caused it, and hands the brand its context', () => {
    const signout = serverSpan('/logout/collectorsid');
    const delivery = spans.find((s) => s.name === 'backchannel.deliver');
    expect(delivery).toMatchObject({
      traceId: signout.traceId,
      parentSpanId: signout.spanId,
      attributes: expect.objectContaining({
        'signon.brand': 'psa',
        'signon.backchannel.delivered': true,
        'signon.backchannel.attempts': 1,
      }),
    });
    const post = spans.find((s) => s.kind === 'client' && s.parentSpanId === delivery?.spanId);
    expect(post?.attributes).toMatchObject({
      'url.full': brand.url,
      'http.response.status_code': 200,
    });
    expect(brand.traceparents).toEqual([`00-${post?.traceId}-${post?.spanId}-01`]);
  });

  it("gives every access line the trace and span ids of its request's exported span", () => {
    const accessLines = run.app
      .logs()
      .filter((l) => l.msg === 'request completed')
      .map((l) => l.req as { id: string; trace_id: string; span_id: string; url: string });
    expect(accessLines.length).toBeGreaterThan(5);
    for (const line of accessLines) {
      const span = spans.find((s) => s.attributes['signon.request_id'] === line.id);
      expect({ url: line.url, traceId: span?.traceId, spanId: span?.spanId }).toEqual({
        url: line.url,
        traceId: line.trace_id,
        spanId: line.span_id,
      });
    }
    // And the sign-in's audit line is in its request's trace.
    const signinEvent = run.app.logs().find((l) => l.event === 'signin');
    const landingRequest = serverSpan('/handleloginredirect');
    expect(signinEvent?.req).toMatchObject({
      trace_id: landingRequest.traceId,
      span_id: landingRequest.spanId,
    });
  });

  it('takes the service name and resource attributes from the OTEL_* variables, over protobuf', () => {
    expect(new Set(receiver.contentTypes)).toEqual(new Set(['application/x-protobuf']));
    expect(spans[0]?.resource).toMatchObject({
      'service.name': 'signon-under-test',
      'service.namespace': 'collectors',
      // OTEL_RESOURCE_ATTRIBUTES wins over the default (APP_ENV).
      'deployment.environment.name': 'ci',
      // The build's version (package.json), on every span's resource.
      'service.version': PACKAGE_VERSION,
    });
    expect(new Set(spans.map((s) => s.resource['service.version']))).toEqual(
      new Set([PACKAGE_VERSION]),
    );
  });

  it('loads the SDK only when asked to (the probe sees it here)', () => {
    expect(tracingPackages(run.loadedModules)).toEqual(
      expect.arrayContaining(['@opentelemetry/sdk-node', 'otel-tracer']),
    );
  });
});

describe('tracing off: no OTLP endpoint', () => {
  it('loads no part of the SDK, nor our tracer, through a whole sign-in', async () => {
    const run = await signInOnce({});
    expect(run.landing.status).toBe(302);
    expect(tracingPackages(run.loadedModules)).toEqual(['@opentelemetry/api']);
    // The logs keep their own trace context.
    const [line] = run.app.logs().filter((l) => l.msg === 'request completed');
    expect(line?.req).toMatchObject({ trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    // Every line of the running build names the service and its version (docs/operating.md "Logs").
    expect(run.app.logs().length).toBeGreaterThan(3);
    for (const l of run.app.logs())
      expect(l).toMatchObject({ service: 'collectors-signon', version: PACKAGE_VERSION });
  }, 90_000);

  it.each([
    ['OTEL_SDK_DISABLED=true', { OTEL_SDK_DISABLED: 'true' }],
    ['OTEL_TRACES_EXPORTER=none', { OTEL_TRACES_EXPORTER: 'none' }],
  ])(
    'nor with an endpoint when %s',
    async (_name, off) => {
      const run = await signInOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', ...off });
      expect(tracingPackages(run.loadedModules)).toEqual(['@opentelemetry/api']);
    },
    90_000,
  );
});
