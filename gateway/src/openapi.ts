// Writes the OpenAPI document to gateway/openapi.json (committed; a test fails when it drifts).
// Usage: npm run build -w @portico/gateway && npm run openapi -w @portico/gateway
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@portico/platform';
import { generateOpenApiJson } from './openapi/openapi.generate.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
await writeFile(target, await generateOpenApiJson(createLogger('gateway', 'warn')));
process.stdout.write(`Wrote ${target}\n`);
