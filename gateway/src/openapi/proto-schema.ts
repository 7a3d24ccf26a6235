import { type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import type { SchemaObject } from '@nestjs/swagger';

const SCALAR: Partial<Record<ScalarType, SchemaObject>> = {
  [ScalarType.STRING]: { type: 'string' },
  [ScalarType.BOOL]: { type: 'boolean' },
  [ScalarType.INT32]: { type: 'integer', format: 'int32' },
  [ScalarType.UINT32]: { type: 'integer', format: 'int32' },
  [ScalarType.SINT32]: { type: 'integer', format: 'int32' },
  [ScalarType.DOUBLE]: { type: 'number' },
  [ScalarType.FLOAT]: { type: 'number' },
  // 64-bit integers travel as strings in protobuf JSON.
  [ScalarType.INT64]: { type: 'string', format: 'int64' },
  [ScalarType.UINT64]: { type: 'string', format: 'int64' },
  [ScalarType.BYTES]: { type: 'string', format: 'byte' },
};

function fieldSchema(field: DescField, depth: number): SchemaObject {
  switch (field.fieldKind) {
    case 'scalar':
      return SCALAR[field.scalar] ?? { type: 'string' };
    case 'enum':
      return { type: 'string', enum: field.enum.values.map((v) => v.name) };
    case 'message':
      return messageSchema(field.message, depth + 1);
    case 'list':
      if (field.listKind === 'scalar')
        return { type: 'array', items: SCALAR[field.scalar] ?? { type: 'string' } };
      if (field.listKind === 'enum') return { type: 'array', items: { type: 'string' } };
      return { type: 'array', items: messageSchema(field.message, depth + 1) };
    case 'map':
      return { type: 'object', additionalProperties: true };
  }
}

/**
 * The JSON shape of a protobuf message as the gateway answers it (proto field names, the spec's keys),
 * so the OpenAPI document describes responses from the same contracts the services use.
 */
export function messageSchema(message: DescMessage, depth = 0): SchemaObject {
  if (message.typeName === 'google.protobuf.Struct' || depth > 4)
    return { type: 'object', additionalProperties: true };
  const properties: Record<string, SchemaObject> = {};
  for (const field of message.fields) properties[field.name] = fieldSchema(field, depth);
  return { type: 'object', title: message.name, properties };
}
