import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { overlays, render } from '../lib/kustomize.js';
import { listFiles, notIgnoredByGit, readText } from '../lib/repo.js';
import { renderedSecretProblems, secretRefs, secretTextProblems } from '../lib/rules.js';

/** Secrets made outside the secrets kustomizations, each with the runbook section that makes it. */
const MADE_APART: Record<string, string> = { 'kong-tls': 'kubectl -n portico create secret tls kong-tls' };

const secretsFolderFor = (overlay: string) =>
  overlay === 'local' ? 'k8s/secrets/local' : 'k8s/secrets/production';

/** Secret name -> keys, from a secrets kustomization and the *.env.example files beside it. */
function providedSecrets(folder: string): Map<string, Set<string>> {
  const k = parse(readText(`${folder}/kustomization.yaml`)) as {
    secretGenerator: { name: string; envs: string[] }[];
  };
  const out = new Map<string, Set<string>>();
  for (const g of k.secretGenerator) {
    const keys = new Set<string>();
    for (const env of g.envs)
      for (const line of readText(`${folder}/${env}.example`).split('\n')) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line);
        if (m?.[1]) keys.add(m[1]);
      }
    out.set(g.name, keys);
  }
  return out;
}

const scanned = () =>
  [...listFiles('k8s'), ...listFiles('gateway/kong'), ...listFiles('infra/docker')].filter(
    (p) => notIgnoredByGit([p]).length === 1,
  );

describe('the secret checks catch secret values (fixtures)', () => {
  it('report a Secret with data, a private key and a filled-in example', () => {
    const secret = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\nstringData:\n  password: hunter2\n';
    expect(secretTextProblems('k8s/x.yaml', secret)).toEqual(['k8s/x.yaml: a Secret with values']);
    expect(
      secretTextProblems(
        'a.json',
        '{"privateKeyPem":"-----BEGIN PRIVATE KEY-----\\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\\n"}',
      ),
    ).toHaveLength(1);
    expect(
      secretTextProblems('a.md', 'JWT_SIGNING_KEYS: [{"privateKeyPem":"-----BEGIN PRIVATE KEY-----\\n..."}]'),
    ).toEqual([]);
    expect(
      secretTextProblems(
        'a.sh',
        '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oY6wz\n',
      ),
    ).toEqual(['a.sh: contains a private key']);
    expect(secretTextProblems('k8s/s/a.env.example', 'username=identity\npassword=s3cret\n')).toEqual([
      'k8s/s/a.env.example: password has a value',
    ]);
    expect(
      renderedSecretProblems([{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } }]),
    ).toHaveLength(1);
  });

  it('report a referenced Secret key that no secrets kustomization provides', () => {
    const objects = render('k8s/overlays/production').map((o) => structuredClone(o));
    const provided = providedSecrets('k8s/secrets/production');
    const identity = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'identity');
    identity?.spec.template.spec.containers[0].env.push({
      name: 'NEW_KEY',
      valueFrom: { secretKeyRef: { name: 'identity-secrets', key: 'NEW_KEY' } },
    });
    const unknown = secretRefs(objects).filter(
      (r) => !MADE_APART[r.name] && !(r.key ? provided.get(r.name)?.has(r.key) : provided.has(r.name)),
    );
    expect(unknown).toEqual([{ where: 'Deployment/identity', name: 'identity-secrets', key: 'NEW_KEY' }]);
  });
});

describe('no secret values in the repository', () => {
  it.each(overlays())('overlay %s renders no Secret', (overlay) => {
    expect(renderedSecretProblems(render(`k8s/overlays/${overlay}`))).toEqual([]);
  });

  it('keeps Secret objects, private keys and filled-in examples out of k8s/, gateway/kong and infra/docker', () => {
    const files = scanned();
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((p) => secretTextProblems(p, readText(p)))).toEqual([]);
  });

  it('ignores the env files that hold real values', () => {
    const candidates = [
      'infra/docker/.env',
      'k8s/secrets/production/identity-secrets.env',
      'k8s/secrets/local/identity-db-role.env',
      'k8s/secrets/production/tls.key',
    ];
    expect(notIgnoredByGit(candidates)).toEqual([]);
    expect(notIgnoredByGit(['k8s/secrets/production/identity-secrets.env.example'])).toHaveLength(1);
  });

  it.each(overlays())(
    'overlay %s references only Secrets (and keys) the secrets kustomization provides',
    (overlay) => {
      const provided = providedSecrets(secretsFolderFor(overlay));
      const unknown = secretRefs(render(`k8s/overlays/${overlay}`)).filter(
        (r) => !MADE_APART[r.name] && !(r.key ? provided.get(r.name)?.has(r.key) : provided.has(r.name)),
      );
      expect(unknown).toEqual([]);
    },
  );

  it('documents how to make each Secret made apart', () => {
    const runbook = readText('k8s/README.md');
    for (const command of Object.values(MADE_APART)) expect(runbook).toContain(command);
  });
});
