import { describe, expect, it, jest } from '@jest/globals';
import type { BusClient } from '@portico/platform';
import { Identity } from '@portico/proto';
import { RpcForwarder } from '../bus/rpc-forwarder.js';

/** A call's refusal, whether it throws at once or rejects. */
const attempt = <T>(call: () => Promise<T>) => Promise.resolve().then(call);

describe('RpcForwarder: input the contract cannot carry', () => {
  const forwarderWith = () => {
    const request = jest.fn(async () => ({}));
    const bus = { request, requestWithBody: request } as unknown as BusClient;
    return { forwarder: new RpcForwarder(bus, 1_000), request };
  };

  it('answers 400 for a value the message holds and cannot write as JSON, and sends nothing', async () => {
    const { forwarder, request } = forwarderWith();
    // JSON.parse reads 1e400 as Infinity: the message takes it, its JSON for the wire cannot be written.
    const input = JSON.parse('{"preferences":{"in_app_banner_text":1e400}}') as object;
    await expect(attempt(() => forwarder.message(Identity.updatePreferences, input))).rejects.toMatchObject({
      status: 400,
      message: 'A value is out of range',
    });
    await expect(forwarder.call(Identity.updatePreferences, input)).rejects.toMatchObject({ status: 400 });
    expect(request).not.toHaveBeenCalled();
  });

  it('answers 400 for a number the message cannot hold, and passes good input on', async () => {
    const { forwarder, request } = forwarderWith();
    await expect(
      attempt(() =>
        forwarder.message(Identity.updatePreferences, { preferences: {}, preferences_version: 2 ** 40 }),
      ),
    ).rejects.toMatchObject({ status: 400 });
    await forwarder.message(Identity.updatePreferences, { preferences: { tour_enabled: true } });
    expect(request).toHaveBeenCalledTimes(1);
  });
});
