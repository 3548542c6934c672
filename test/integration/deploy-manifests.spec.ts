import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { parseConfig, type RawEnv } from '../../src/config/config.schema';
import { ROUTES } from '../../src/shared/routes';
import { renderKustomization } from '../support/kustomize';
import { productionEnv } from '../support/test-config';

/**
 * Issue 17 item 3: the deployment manifests in deploy/. No container engine runs here, so they are
 * read as data: every variable they set is one the service reads (parseConfig, watched through a
 * proxy), the probes are the service's routes, compose and Kubernetes set the same variables, the
 * preStop pause matches the drain, the pod runs non-root on a read-only root with no capabilities,
 * and the production layout (ConfigMap + Secret with real values) is a configuration the service
 * accepts.
 */
const DEPLOY = path.resolve(__dirname, '../../deploy');
type Doc = Record<string, unknown>;

function documents(file: string): Doc[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Doc);
}
/**
 * What `kubectl apply -k` sends (the ConfigMap is generated: test/support/kustomize.ts), and the
 * Secret's layout, which is created from a secret store rather than applied.
 */
const kube = [
  ...renderKustomization(),
  ...documents(path.join(DEPLOY, 'kubernetes', 'secret.yaml')),
];
/** The parts of the manifests the checks read. */
interface Probe {
  httpGet: { path: string; port: string };
}
interface Container {
  ports: { name: string; containerPort: number }[];
  livenessProbe: Probe;
  readinessProbe: Probe;
  startupProbe: Probe;
  lifecycle: { preStop: { exec: { command: string[] } } };
  securityContext: unknown;
  volumeMounts: { mountPath: string }[];
  resources: { requests: unknown };
}
interface Manifest {
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: {
    selector: { matchLabels?: Record<string, string> } & Record<string, unknown>;
    scaleTargetRef: unknown;
    minReplicas: number;
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        containers: Container[];
        securityContext: unknown;
        terminationGracePeriodSeconds: number;
      };
    };
  };
}
const ofKind = (kind: string): Manifest => {
  const doc = kube.find((d) => d.kind === kind);
  if (!doc) throw new Error(`no ${kind} in deploy/kubernetes`);
  return doc as unknown as Manifest;
};
const compose = documents(path.join(DEPLOY, 'compose.yaml'))[0] as {
  services: Record<string, { environment?: Record<string, string> }>;
};

/** Set by the image or the runtime, or read by the OpenTelemetry SDK itself, not by parseConfig. */
const NOT_SERVICE_CONFIG = /^(NODE_ENV|MALLOC_ARENA_MAX|OTEL_[A-Z_]+)$/;

/** The keys parseConfig reads for an environment (a Proxy records every lookup). */
function keysRead(env: RawEnv): Set<string> {
  const read = new Set<string>();
  const watched = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return target[key as string];
    },
  });
  try {
    parseConfig(watched);
  } catch {
    // Problems are beside the point here: which keys were looked at is.
  }
  return read;
}

const configMap = ofKind('ConfigMap').data ?? {};
const secret = ofKind('Secret').stringData ?? {};
const serviceEnv = compose.services['signon-1']?.environment ?? {};
const container = ofKind('Deployment').spec.template.spec.containers[0] as Container;

describe('deploy/ manifests', () => {
  it('every variable they set is read by the service', () => {
    const kubeEnv = { ...configMap, ...secret };
    for (const env of [kubeEnv, serviceEnv]) {
      const read = keysRead(env);
      const unknown = Object.keys(env).filter((k) => !read.has(k) && !NOT_SERVICE_CONFIG.test(k));
      expect(unknown).toEqual([]);
    }
  });

  it('compose and Kubernetes set the same variables', () => {
    expect(Object.keys(serviceEnv).sort()).toEqual(Object.keys({ ...configMap, ...secret }).sort());
  });

  it('the Kubernetes layout with real secrets is a production configuration the service accepts', () => {
    // Real secrets are random: qa and prod refuse a repeated character or byte (issue 50 item 10).
    const key = randomBytes(32).toString('base64');
    const config = parseConfig({
      ...configMap,
      ...secret,
      SESSION_SECRET: randomBytes(36).toString('base64'),
      IDP_CLIENT_SECRET: randomBytes(30).toString('base64url'),
      TOKEN_ENCRYPTION_KEYS: `prod-1:${key}`,
      REDIS_URL: 'rediss://:p@redis.collectors.internal:6380',
      BRAND_CLIENTS: productionEnv().BRAND_CLIENTS,
    });
    expect(config.env).toBe('prod');
    expect(config.sessionStore.kind).toBe('redis');
    expect(config.http.trustProxy).toBe(1);
  });

  it('the placeholders of secret.yaml are refused, so a forgotten one stops the start', () => {
    let message = '';
    try {
      parseConfig({ ...configMap, ...secret });
    } catch (error) {
      message = String(error);
    }
    for (const key of [
      'SESSION_SECRET',
      'IDP_CLIENT_SECRET',
      'TOKEN_ENCRYPTION_KEYS',
      'BRAND_CLIENTS.psa',
    ])
      expect(message).toContain(`- ${key}:`);
  });

  it('the compose environment is a dev configuration the service accepts', () => {
    const config = parseConfig(serviceEnv);
    expect(config.env).toBe('dev');
    expect(config.idp.mode).toBe('embedded');
    expect(config.http.trustProxy).toBe(1);
  });

  it('the probes are the service’s routes on its management port', () => {
    expect(container.livenessProbe.httpGet.path).toBe(ROUTES.healthz);
    expect(container.readinessProbe.httpGet.path).toBe(ROUTES.readyz);
    expect(container.startupProbe.httpGet.path).toBe(ROUTES.healthz);
    for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe])
      expect(probe.httpGet.port).toBe('management');
    const port = container.ports.find((p) => p.name === 'http');
    expect(String(port?.containerPort)).toBe(configMap.PORT);
    const management = container.ports.find((p) => p.name === 'management');
    expect(String(management?.containerPort)).toBe(configMap.MANAGEMENT_PORT);
  });

  it('the preStop pause matches SHUTDOWN_DRAIN_MS, and the grace period covers drain and stop', () => {
    const command = container.lifecycle.preStop.exec.command.join(' ');
    const seconds = Number(/sleep (\d+)/.exec(command)?.[1]);
    expect(seconds * 1000).toBe(Number(configMap.SHUTDOWN_DRAIN_MS));
    const grace = ofKind('Deployment').spec.template.spec.terminationGracePeriodSeconds;
    expect(grace * 1000).toBeGreaterThan(
      Number(configMap.SHUTDOWN_DRAIN_MS) + Number(configMap.SHUTDOWN_TIMEOUT_MS),
    );
  });

  it('the pod runs non-root, on a read-only root filesystem, with every capability dropped', () => {
    const pod = ofKind('Deployment').spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toEqual({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    // Where the service writes: DATA_DIR (the image's /app/data) and /tmp.
    expect(container.volumeMounts.map((m) => m.mountPath).sort()).toEqual(['/app/data', '/tmp']);
    expect(container.resources.requests).toEqual({ cpu: '250m', memory: '256Mi' });
  });

  it('has a Service, a PodDisruptionBudget and a HorizontalPodAutoscaler for the Deployment', () => {
    const labels = ofKind('Deployment').spec.template.metadata.labels;
    expect(ofKind('Service').spec.selector).toEqual(labels);
    expect(ofKind('PodDisruptionBudget').spec.selector.matchLabels).toEqual(labels);
    expect(ofKind('HorizontalPodAutoscaler').spec.scaleTargetRef).toMatchObject({
      kind: 'Deployment',
      name: ofKind('Deployment').metadata.name,
    });
    expect(ofKind('HorizontalPodAutoscaler').spec.minReplicas).toBeGreaterThanOrEqual(2);
  });

  it('compose: two instances and Redis behind one balancer', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'balancer',
      'redis',
      'signon-1',
      'signon-2',
    ]);
    const nginx = readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8');
    expect(nginx).toContain('server signon-1:3333');
    expect(nginx).toContain('server signon-2:3333');
    expect(serviceEnv.REDIS_URL).toBe('redis://redis:6379');
  });

  // docs/operating.md "The management port": the balancer forwards the public port only, and
  // answers the management paths itself, in any case and with a trailing slash.
  it('compose: the balancer never forwards /metrics, /healthz or /readyz; the management port is not published', () => {
    const nginx = readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8');
    const block = /location ~\* \^\/\(metrics\|healthz\|readyz\)\(\/\|\$\) \{\s*return 404;\s*\}/;
    expect(nginx).toMatch(block);
    expect(nginx.indexOf('return 404;')).toBeLessThan(nginx.indexOf('proxy_pass'));
    expect([...nginx.matchAll(/server signon-\d:(\d+)/g)].map((m) => m[1])).toEqual([
      serviceEnv.PORT,
      serviceEnv.PORT,
    ]);
    const published = Object.entries(
      compose.services as Record<string, { ports?: string[] }>,
    ).flatMap(([name, s]) => (s.ports ?? []).map((p) => `${name} ${p}`));
    expect(published).toEqual(['balancer 8080:8080']);
  });
});
