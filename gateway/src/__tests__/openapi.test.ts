import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { createLogger } from '@portico/platform';
import { generateOpenApiJson } from '../openapi/openapi.generate.js';

describe('the committed OpenAPI document', () => {
  it('matches the one generated from the routes (run `npm run openapi -w @portico/gateway` after a change)', async () => {
    const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
    const generated = await generateOpenApiJson(createLogger('gateway', 'silent'));
    expect(JSON.parse(committed)).toEqual(JSON.parse(generated));
    expect(committed).toBe(generated);
  });

  it('documents request bodies, responses and bearer auth from the schemas and contracts', async () => {
    const doc = JSON.parse(await generateOpenApiJson(createLogger('gateway', 'silent')));
    const verify = doc.paths['/sessions/verify_password'].post;
    expect(verify.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(verify.responses['200'].content['application/json'].schema.properties).toHaveProperty(
      'auth_token',
    );
    expect(doc.paths['/current_user'].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/dev/outbox']).toBeUndefined();
  });
});
