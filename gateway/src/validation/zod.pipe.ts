import { Body, Injectable, Param, type PipeTransform, Query } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery, type SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';
import { pathId } from './fields.js';
import { parseInput } from './validation.rules.js';

@Injectable()
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(readonly schema: S) {}
  transform(value: unknown): z.output<S> {
    return parseInput(this.schema, value);
  }
}

/** The input as the OpenAPI document shows it. */
export function jsonSchemaOf(schema: z.ZodType): SchemaObject {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json as SchemaObject;
}

function methodOf(
  target: object,
  key: string | symbol | undefined,
): [string | symbol, PropertyDescriptor] | undefined {
  if (key === undefined) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return descriptor ? [key, descriptor] : undefined;
}

/** The JSON body, validated with `schema` (400 with field messages) and documented from it. */
export function ValidBody(schema: z.ZodType): ParameterDecorator {
  return (target, key, index) => {
    Body(new ZodPipe(schema))(target, key, index);
    const method = methodOf(target, key);
    if (method) ApiBody({ schema: jsonSchemaOf(schema) })(target, method[0], method[1]);
  };
}

/** The query string, validated with an object `schema` and documented one parameter per key. */
export function ValidQuery(schema: z.ZodObject): ParameterDecorator {
  return (target, key, index) => {
    Query(new ZodPipe(schema))(target, key, index);
    const method = methodOf(target, key);
    if (!method) return;
    const json = jsonSchemaOf(schema);
    const required = new Set(json.required ?? []);
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      ApiQuery({ name, required: required.has(name), schema: property as SchemaObject })(
        target,
        method[0],
        method[1],
      );
    }
  };
}

/** The `:id` path parameter: opaque to the gateway, validated for shape and documented. */
export function ValidId(): ParameterDecorator {
  const schema = pathId();
  return (target, key, index) => {
    Param('id', new ZodPipe(schema))(target, key, index);
    const method = methodOf(target, key);
    if (method) ApiParam({ name: 'id', schema: jsonSchemaOf(schema) })(target, method[0], method[1]);
  };
}
