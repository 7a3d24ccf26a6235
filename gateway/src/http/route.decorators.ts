import type { DescMessage } from '@bufbuild/protobuf';
import { applyDecorators, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { messageSchema } from '../openapi/proto-schema.js';

/** An RPC-style POST of the spec: it answers 200 with the result, not 201. */
export const PostAction = (path: string) => applyDecorators(Post(path), HttpCode(200));

/** Documents the route: its summary, its 200 body (from the contract's response message) and a 400. */
export const Describe = (summary: string, response?: DescMessage, options: { deprecated?: boolean } = {}) =>
  applyDecorators(
    ApiOperation({ summary, ...options }),
    ...(response ? [ApiOkResponse({ schema: messageSchema(response) })] : []),
    ApiBadRequestResponse({
      description: 'Invalid input: `{ error, message, code: "invalid_input", fields }`',
    }),
  );
