import { describe, expect, it } from '@jest/globals';
import { NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { AppError } from '@portico/platform';
import { toErrorResponse } from '../errors/error-response.js';

describe('error mapping', () => {
  it("keeps a service's status, code, message and fields", () => {
    const err = new AppError('bad_request', 'invalid_input', 'Email is missing', {
      fields: { email: 'Email is missing' },
    });
    expect(toErrorResponse(err, 'abc')).toEqual({
      status: 400,
      headers: {},
      unexpected: false,
      body: {
        error: 'Email is missing',
        message: 'Email is missing',
        code: 'invalid_input',
        fields: { email: 'Email is missing' },
        trace_id: 'abc',
      },
    });
  });

  it('adds Retry-After to a 429', () => {
    const err = new AppError('too_many_requests', 'too_many_attempts', 'Too many incorrect attempts', {
      retryAfterSeconds: 42,
    });
    const response = toErrorResponse(err);
    expect(response.status).toBe(429);
    expect(response.headers).toEqual({ 'retry-after': '42' });
    expect(response.body.error).toBe('Too many incorrect attempts');
  });

  it('maps the statuses of the error model', () => {
    const status = (kind: AppError['kind']) => toErrorResponse(new AppError(kind, 'x', 'm')).status;
    expect([status('unauthorized'), status('forbidden'), status('not_found'), status('locked')]).toEqual([
      401, 403, 404, 423,
    ]);
    expect([status('unavailable'), status('timeout')]).toEqual([503, 504]);
  });

  it('hides an unknown error behind a generic 500 with the trace id and no details', () => {
    const response = toErrorResponse(new Error('password=hunter2 at db.ts:12'), 'trace-1');
    expect(response).toMatchObject({ status: 500, unexpected: true });
    expect(response.body).toEqual({
      error: 'Something went wrong',
      message: 'Something went wrong',
      code: 'internal',
      trace_id: 'trace-1',
    });
  });

  it("hides an internal service error's own message behind the generic 500, keeping its trace id", () => {
    const fromService = new AppError(
      'internal',
      'pg_failed',
      'relation "sessions" does not exist (refresh.ts:42)',
      {
        traceId: 'service-trace',
        fields: { token: 'abc' },
      },
    );
    const response = toErrorResponse(fromService);
    expect(response).toMatchObject({ status: 500, unexpected: true, headers: {} });
    expect(response.body).toEqual({
      error: 'Something went wrong',
      message: 'Something went wrong',
      code: 'internal',
      trace_id: 'service-trace',
    });
    expect(toErrorResponse(fromService, 'gateway-trace').body.trace_id).toBe('gateway-trace');
  });

  it('gives framework errors the same body shape', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /nope')).body).toEqual({
      error: 'Not found',
      message: 'Not found',
      code: 'not_found',
    });
    expect(toErrorResponse(new PayloadTooLargeException()).status).toBe(413);
  });
});
