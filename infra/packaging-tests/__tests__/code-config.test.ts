import { describe, expect, it } from '@jest/globals';
import type { z } from 'zod';
import { gatewayEnv } from '../../../gateway/src/config/gateway.config.js';
import { documentsEnv } from '../../../services/documents/src/config.js';
import { identityEnv } from '../../../services/identity/src/config.js';
import { notificationsEnv } from '../../../services/notifications/src/config.js';
import {
  DEFAULT_DELIVERY_LIMITS,
  stopAllowanceMs,
} from '../../../services/notifications/src/delivery.limits.js';
import { find, overlays, render } from '../lib/kustomize.js';
import { contract, type Deployable, expectedEnv } from '../lib/repo.js';

// The runtime contract (which the compose file and the manifests are checked against) must agree with
// what each process really reads: its validated configuration schema.
const schemas: Record<string, z.ZodRawShape> = {
  gateway: gatewayEnv,
  identity: identityEnv,
  notifications: notificationsEnv,
  documents: documentsEnv,
};
const c = contract();

/** Variables read by the OpenTelemetry SDK itself rather than by the service's schema. */
const readBySdk = (name: string) => name.startsWith('OTEL_');
const required = (shape: z.ZodRawShape) =>
  Object.entries(shape)
    .filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success)
    .map(([name]) => name);

function disagreements(name: string, shape: z.ZodRawShape, deployable: Deployable) {
  const given = new Set(expectedEnv(c, deployable));
  const unknown = [...given].filter(
    (env) => !(env in shape) && !readBySdk(env) && !deployable.optionalSecretEnv.includes(env),
  );
  const missing = required(shape).filter((env) => !given.has(env));
  return { name, unknown, missing };
}

describe('the runtime contract and the code read the same variables', () => {
  for (const [name, shape] of Object.entries(schemas)) {
    it(`${name}: every variable given is one the code reads, every required one is given`, () => {
      const deployable = c.deployables[name] as Deployable;
      expect(deployable).toBeDefined();
      expect(disagreements(name, shape, deployable)).toEqual({ name, unknown: [], missing: [] });
    });
  }

  it('has the schema of every deployable in the contract', () => {
    expect(Object.keys(schemas).sort()).toEqual(Object.keys(c.deployables).sort());
  });

  it('catches a variable the code does not read and a required one that is missing', () => {
    const deployable = structuredClone(c.deployables.identity as Deployable);
    deployable.env = [...deployable.env.filter((e) => e !== 'HEALTH_PORT'), 'TYPO_SETTING'];
    deployable.secretEnv = deployable.secretEnv.filter((e) => e !== 'DATABASE_URL');
    expect(disagreements('identity', identityEnv, deployable)).toEqual({
      name: 'identity',
      unknown: ['TYPO_SETTING'],
      missing: ['DATABASE_URL'],
    });
  });
});

describe("the notifications pod's grace period and its delivery worker's limits", () => {
  /** After the worker's last outcome: closing the connections and the telemetry's last flush. */
  const CLOSE_SECONDS = 5;

  it.each(overlays())(
    'overlay %s: a stopping worker finishes its longest attempt and records it before the pod is killed',
    (overlay) => {
      const pod = find(render(`k8s/overlays/${overlay}`), 'Deployment', 'notifications')?.spec.template.spec;
      const container = pod.containers.find((c: { name: string }) => c.name === 'notifications');
      // The worker claims until the process is told to stop, after the preStop pause.
      const [command, seconds] = container.lifecycle?.preStop?.exec?.command ?? [];
      expect(command).toBe('sleep');
      const needed = Number(seconds) + stopAllowanceMs(DEFAULT_DELIVERY_LIMITS) / 1_000 + CLOSE_SECONDS;
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(needed);
    },
  );
});
