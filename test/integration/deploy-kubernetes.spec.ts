import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHECK_TIMEOUT_MS } from '../../src/health/readiness-check';
import { ROUTES } from '../../src/shared/routes';
import { KUBERNETES_DIR, KubeObject, renderKustomization } from '../support/kustomize';

/**
 * deploy/kubernetes as `kubectl apply -k` would send it, rendered offline (`kubectl kustomize`):
 * docs/operating.md "Kubernetes". No Kubernetes schema validator is on the registries this project
 * installs from (kubeconform and kubeval are on neither), so the checks below stand in for one: every
 * object is named and typed, every port a probe, Service or NetworkPolicy names exists on the
 * container, and the production rules (management port never routed, spread, both directions of
 * the NetworkPolicy, a rollout on configuration changes, bounded scratch space, a heap that follows
 * the memory limit, readiness that outlasts one slow ping) hold.
 */

interface Port {
  readonly name: string;
  readonly containerPort: number;
}
interface Probe {
  readonly httpGet: { readonly path: string; readonly port: string };
  readonly periodSeconds: number;
  readonly timeoutSeconds: number;
  readonly failureThreshold: number;
}
interface Container {
  readonly name: string;
  readonly command: string[];
  readonly ports: Port[];
  readonly env: {
    name: string;
    valueFrom?: { resourceFieldRef?: { containerName: string; resource: string; divisor: string } };
  }[];
  readonly envFrom: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readonly livenessProbe: Probe;
  readonly readinessProbe: Probe;
  readonly startupProbe: Probe;
  readonly resources: { limits: { memory: string } };
}
interface PodSpec {
  readonly containers: Container[];
  readonly volumes: { name: string; emptyDir?: { sizeLimit?: string } }[];
  readonly topologySpreadConstraints: {
    topologyKey: string;
    maxSkew: number;
    whenUnsatisfiable: string;
    labelSelector: { matchLabels: Record<string, string> };
  }[];
}
interface ServicePort {
  readonly name: string;
  readonly port: number;
  readonly targetPort: string;
}
interface IngressBackend {
  readonly service: { readonly name: string; readonly port: { name?: string; number?: number } };
}
interface PolicyPort {
  readonly port: number | string;
  readonly protocol: string;
}

const objects = renderKustomization();
const all = (kind: string) => objects.filter((o) => o.kind === kind);
const one = <T>(kind: string): KubeObject & T => {
  const found = all(kind);
  if (found.length !== 1) throw new Error(`${found.length} objects of kind ${kind}`);
  return found[0] as KubeObject & T;
};

const deployment = one<{
  spec: { template: { metadata: { labels: Record<string, string> }; spec: PodSpec } };
}>('Deployment');
const pod = deployment.spec.template.spec;
const podLabels = deployment.spec.template.metadata.labels;
const container = pod.containers[0] as Container;
const portNamed = (name: string) => container.ports.find((p) => p.name === name);
/** The service's configuration (other ConfigMaps, a dashboard's, may sit beside it). */
const configMap = all('ConfigMap').find((o) =>
  /^collectors-signon-[a-z0-9]{10}$/.test(o.metadata?.name ?? ''),
) as KubeObject & { data: Record<string, string> };
const services = all('Service') as (KubeObject & {
  spec: { selector: Record<string, string>; clusterIP?: string; ports: ServicePort[] };
})[];
const serviceNamed = (name: string) => services.find((s) => s.metadata?.name === name);

describe('deploy/kubernetes, rendered by kubectl kustomize', () => {
  it('every object has an apiVersion, a kind and a name', () => {
    expect(objects.length).toBeGreaterThanOrEqual(7);
    for (const o of objects) {
      expect(o.apiVersion).toMatch(/^[a-z0-9.]*\/?v\d+(beta\d+)?$/);
      expect(o.kind).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(o.metadata?.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    }
  });

  it('the container has the public and the management port, as the ConfigMap sets them', () => {
    expect(String(portNamed('http')?.containerPort)).toBe(configMap.data.PORT);
    expect(String(portNamed('management')?.containerPort)).toBe(configMap.data.MANAGEMENT_PORT);
    expect(configMap.data.MANAGEMENT_PORT).not.toBe(configMap.data.PORT);
  });

  it('every probe reads health on the management port', () => {
    const probes = [container.livenessProbe, container.readinessProbe, container.startupProbe];
    for (const probe of probes) {
      expect(probe.httpGet.port).toBe('management');
      expect(portNamed(probe.httpGet.port)).toBeDefined();
    }
    expect(container.livenessProbe.httpGet.path).toBe(ROUTES.healthz);
    expect(container.startupProbe.httpGet.path).toBe(ROUTES.healthz);
    expect(container.readinessProbe.httpGet.path).toBe(ROUTES.readyz);
  });

  it('readiness outlasts one slow store ping: the service answers before the probe gives up, and it takes several failures in a row', () => {
    const readiness = container.readinessProbe;
    // The service gives a hung ping up after CHECK_TIMEOUT_MS and answers 503 with the reason.
    expect(readiness.timeoutSeconds * 1000).toBeGreaterThan(CHECK_TIMEOUT_MS);
    expect(readiness.failureThreshold).toBeGreaterThanOrEqual(3);
    // At least 10 s of failures in a row before a pod leaves the endpoints.
    expect(readiness.periodSeconds * (readiness.failureThreshold - 1)).toBeGreaterThanOrEqual(10);
  });

  it('every Service port targets a port the container has; the public one never the management port', () => {
    for (const service of services) {
      expect(service.spec.selector).toEqual(podLabels);
      for (const port of service.spec.ports) expect(portNamed(port.targetPort)).toBeDefined();
    }
    const publicService = serviceNamed('collectors-signon');
    expect(publicService?.spec.ports.map((p) => p.targetPort)).toEqual(['http']);
  });

  it('the management port has a headless Service of its own, its port named `management` for a ServiceMonitor', () => {
    const management = serviceNamed('collectors-signon-management');
    expect(management?.spec.clusterIP).toBe('None');
    expect(management?.spec.ports).toEqual([
      {
        name: 'management',
        port: Number(configMap.data.MANAGEMENT_PORT),
        targetPort: 'management',
      },
    ]);
    expect(management?.metadata?.labels).toEqual({
      'app.kubernetes.io/name': 'collectors-signon',
      'app.kubernetes.io/component': 'management',
    });
  });

  it('the Ingress routes only to the public Service’s public port, and never a management path', () => {
    const ingress = one<{
      spec: {
        defaultBackend?: IngressBackend;
        rules: { http: { paths: { path: string; backend: IngressBackend }[] } }[];
      };
    }>('Ingress');
    const paths = ingress.spec.rules.flatMap((r) => r.http.paths);
    const backends = [
      ...paths.map((p) => p.backend),
      ...(ingress.spec.defaultBackend ? [ingress.spec.defaultBackend] : []),
    ];
    expect(backends.length).toBeGreaterThan(0);
    for (const backend of backends)
      expect(backend.service).toEqual({ name: 'collectors-signon', port: { name: 'http' } });
    for (const { path: p } of paths)
      expect([ROUTES.metrics, ROUTES.healthz, ROUTES.readyz]).not.toContain(p);
  });

  it('every emptyDir has a sizeLimit', () => {
    const emptyDirs = pod.volumes.filter((v) => v.emptyDir);
    expect(emptyDirs.length).toBeGreaterThan(0);
    for (const volume of emptyDirs) expect(volume.emptyDir?.sizeLimit).toMatch(/^\d+(Mi|Gi)$/);
  });

  it('spreads the pods over nodes and zones', () => {
    const keys = pod.topologySpreadConstraints.map((c) => c.topologyKey).sort();
    expect(keys).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
    for (const constraint of pod.topologySpreadConstraints) {
      expect(constraint.maxSkew).toBe(1);
      expect(constraint.labelSelector.matchLabels).toEqual(podLabels);
    }
  });

  it('has a NetworkPolicy for both directions: the controller and Prometheus in, DNS, Redis, OTLP and https out', () => {
    const policy = one<{
      spec: {
        podSelector: { matchLabels: Record<string, string> };
        policyTypes: string[];
        ingress: { from: unknown[]; ports: PolicyPort[] }[];
        egress: { to: unknown[]; ports: PolicyPort[] }[];
      };
    }>('NetworkPolicy');
    expect(policy.spec.podSelector.matchLabels).toEqual(podLabels);
    expect(policy.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    // Each ingress rule opens one named port of the container: the public one to the controller, the
    // management one to Prometheus, never both to the same peers.
    const inPorts = policy.spec.ingress.map((rule) => rule.ports.map((p) => p.port));
    expect(inPorts).toEqual([['http'], ['management']]);
    for (const [name] of inPorts) expect(portNamed(String(name))).toBeDefined();
    expect(JSON.stringify(policy.spec.ingress[0]?.from)).toContain('ingress-nginx');
    expect(JSON.stringify(policy.spec.ingress[1]?.from)).toContain('prometheus');
    const out = policy.spec.egress.flatMap((rule) =>
      rule.ports.map((p) => `${p.port}/${p.protocol}`),
    );
    for (const needed of ['53/UDP', '53/TCP', '6379/TCP', '6380/TCP', '4318/TCP', '443/TCP'])
      expect(out).toContain(needed);
  });

  it('rolls the pods when the configuration changes: the ConfigMap’s name is a hash of its content', () => {
    const name = configMap.metadata?.name ?? '';
    expect(name).toMatch(/^collectors-signon-[a-z0-9]{10}$/);
    const refs = container.envFrom.map((e) => e.configMapRef?.name).filter(Boolean);
    expect(refs).toEqual([name]);
    // The same layout with one value changed: a new name, and the Deployment follows it.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-copy-'));
    try {
      fs.cpSync(KUBERNETES_DIR, copy, { recursive: true });
      const file = path.join(copy, 'kustomization.yaml');
      const text = fs.readFileSync(file, 'utf8');
      expect(text).toContain('- LOG_LEVEL=info\n');
      fs.writeFileSync(file, text.replace('- LOG_LEVEL=info\n', '- LOG_LEVEL=debug\n'));
      const changed = renderKustomization(copy);
      const changedMap = changed.find(
        (o) => o.kind === 'ConfigMap' && o.metadata?.name?.startsWith('collectors-signon-'),
      ) as typeof configMap;
      expect(changedMap.data.LOG_LEVEL).toBe('debug');
      expect(changedMap.metadata?.name).not.toBe(name);
      const changedDeployment = changed.find((o) => o.kind === 'Deployment') as typeof deployment;
      const changedRefs = changedDeployment.spec.template.spec.containers[0]?.envFrom.map(
        (e) => e.configMapRef?.name,
      );
      expect(changedRefs).toContain(changedMap.metadata?.name);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  describe('the heap follows the memory limit', () => {
    it('reads the limit from the container’s own resources', () => {
      const variable = container.env.find((e) => e.name === 'MEMORY_LIMIT_MIB');
      expect(variable?.valueFrom?.resourceFieldRef).toEqual({
        containerName: container.name,
        resource: 'limits.memory',
        divisor: '1Mi',
      });
      expect(container.resources.limits.memory).toBe('384Mi');
    });

    it('runs the image’s entry point, with node as PID 1 (exec) so that it receives SIGTERM', () => {
      const dockerfile = fs.readFileSync(path.resolve(__dirname, '../../Dockerfile'), 'utf8');
      const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
      const script = container.command.at(-1) ?? '';
      expect(container.command.slice(0, 2)).toEqual(['/bin/sh', '-c']);
      expect(script).toMatch(/^exec node /);
      expect(script.endsWith(` ${cmd.at(-1)}`)).toBe(true);
    });

    /** The old-space limit V8 gets from the command, with MEMORY_LIMIT_MIB as Kubernetes sets it. */
    function heapLimitMiB(limitMiB: number): number {
      // Kubernetes turns $$ into $ when it expands the command; the shell then does the arithmetic.
      const script = (container.command.at(-1) ?? '')
        .replace(/\$\$/g, '$')
        .replace(
          /dist\/src\/main\.js$/,
          `-e 'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))'`,
        );
      const out = execFileSync('/bin/sh', ['-c', script], {
        env: { PATH: path.dirname(process.execPath), MEMORY_LIMIT_MIB: String(limitMiB) },
        encoding: 'utf8',
      });
      return Number(out) / 2 ** 20;
    }

    it('gives V8 half the limit: 192 MB more heap for every 384 MiB more memory', () => {
      const small = heapLimitMiB(384);
      const large = heapLimitMiB(768);
      expect(large - small).toBeGreaterThan(192 * 0.95);
      expect(large - small).toBeLessThan(192 * 1.05);
      // And the whole heap stays well inside the limit (the rest is native memory and code).
      expect(small).toBeLessThan(384 * 0.75);
    });
  });
});
