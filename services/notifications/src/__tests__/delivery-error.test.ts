import { describe, expect, it } from '@jest/globals';
import { DeliveryError, withoutPersonalData } from '../delivery/delivery.error.js';
import { smtpFailure } from '../delivery/smtp.adapter.js';

describe('what a failed delivery tells the logs', () => {
  it('leaves out the addresses, phone numbers and codes providers echo back', () => {
    expect(withoutPersonalData('550 5.1.1 <jane.doe@client.example>: Recipient address rejected')).toBe(
      '550 5.1.1 <[address]>: Recipient address rejected',
    );
    expect(withoutPersonalData("The 'To' number +15550100400 is not valid")).toBe(
      "The 'To' number [number] is not valid",
    );
    expect(withoutPersonalData('(555) 010-0400 and 555.010.0400 and 5550100400')).toBe(
      '[number] and [number] and [number]',
    );
    expect(withoutPersonalData('echo: Your Demo CPA sign-in code is 482913.')).toBe(
      'echo: Your Demo CPA sign-in code is [number].',
    );
  });

  it('leaves out control characters, which PostgreSQL cannot store', () => {
    expect(withoutPersonalData('bad\u0000gateway\u001b[0m at\tnoon\n')).toBe('badgateway[0m at\tnoon\n');
  });

  it('keeps what says what went wrong: status codes, hosts and ports', () => {
    for (const text of [
      '421 4.7.0 Try again later',
      'connect ECONNREFUSED 127.0.0.1:2525',
      'SMS provider answered 503',
    ])
      expect(withoutPersonalData(text)).toBe(text);
  });

  it("keeps the provider error's name and code, not its message", () => {
    const reply = Object.assign(new Error('Recipient <jane@client.example> rejected'), {
      code: 'EENVELOPE',
      responseCode: 550,
      permanent: true,
    });
    const failure = smtpFailure(reply);
    expect(failure).toBeInstanceOf(DeliveryError);
    expect(failure.message).toBe('Recipient <[address]> rejected (SMTP 550)');
    expect(failure.stack).not.toContain('jane@');
    expect(failure.cause).toBeUndefined();
    expect(failure.providerError).toEqual({ name: 'Error', code: 'EENVELOPE' });
    expect(failure.permanent).toBe(true);
  });
});
