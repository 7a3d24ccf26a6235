import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { BEARER } from '../auth/auth.decorators.js';

/** The OpenAPI document of every route, generated from the controllers, schemas and contracts. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Portico API')
    .setDescription(
      'The REST API of the Portico client portal. JSON in and out with the spec keys (snake_case). ' +
        'A failure answers `{ error, message, code, fields?, trace_id? }`; a 401 with code `token_expired` ' +
        'asks the browser to refresh once. Realtime: a WebSocket at /realtime (see the gateway README).',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER)
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the document at /docs/openapi.json and its UI at /docs. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json', raw: ['json'] });
}
