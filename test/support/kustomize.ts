import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** One Kubernetes object as YAML gives it. */
export type KubeObject = Record<string, unknown> & {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly name?: string } & Record<string, unknown>;
};

export const KUBERNETES_DIR = path.resolve(__dirname, '../../deploy/kubernetes');

/**
 * What `kubectl apply -k deploy/kubernetes` would send, rendered offline by `kubectl kustomize`
 * (no API server needed; scripts/test-prerequisites.js installs kubectl). Generated names (the
 * ConfigMap's hash suffix) are as the cluster would see them.
 */
export function renderKustomization(dir = KUBERNETES_DIR): KubeObject[] {
  const yaml = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  return parseAllDocuments(yaml).map((d) => d.toJS() as KubeObject);
}
