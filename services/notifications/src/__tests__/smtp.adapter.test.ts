import { describe, expect, it } from '@jest/globals';
import { addressOf, smtpFailure } from '../delivery/smtp.adapter.js';

const failure = (fields: { code?: string; responseCode?: number; permanent?: boolean }) =>
  Object.assign(new Error('Message failed'), fields);

describe('SMTP failures', () => {
  it('gives up on a refused recipient or message (5xx)', () => {
    const err = smtpFailure(failure({ code: 'EENVELOPE', responseCode: 550, permanent: true }));
    expect(err.permanent).toBe(true);
    expect(err.message).toBe('Message failed (SMTP 550)');
  });

  it('retries a server that refuses STARTTLS (or whose offer was removed on the way), rather than failing the message', () => {
    expect(smtpFailure(failure({ code: 'ETLS', responseCode: 500, permanent: true })).permanent).toBe(false);
  });

  it('gives up on a message refused for good after the data was sent (5xx)', () => {
    expect(smtpFailure(failure({ code: 'EMESSAGE', responseCode: 554, permanent: true })).permanent).toBe(
      true,
    );
  });

  it('retries a server that refuses the connection itself with a 5xx, as nodemailer marks it permanent', () => {
    // A 554 greeting (a server refusing connections for now, a greylisting or blocked address)...
    expect(smtpFailure(failure({ code: 'EPROTOCOL', responseCode: 554, permanent: true })).permanent).toBe(
      false,
    );
    // ...and an EHLO refused by a server whose STARTTLS this connection needs.
    expect(smtpFailure(failure({ code: 'ECONNECTION', responseCode: 550, permanent: true })).permanent).toBe(
      false,
    );
  });

  it('retries a temporary refusal, a connection failure and a refused login', () => {
    expect(smtpFailure(failure({ code: 'EENVELOPE', responseCode: 451, permanent: false })).permanent).toBe(
      false,
    );
    expect(smtpFailure(failure({ code: 'ECONNECTION' })).permanent).toBe(false);
    expect(smtpFailure(failure({ code: 'EAUTH', responseCode: 535, permanent: true })).permanent).toBe(false);
  });
});

describe('the From address', () => {
  it('is the address of MAIL_FROM, with or without its display name', () => {
    expect(addressOf('Portico <no-reply@portico.example>')).toBe('no-reply@portico.example');
    expect(addressOf('"Demo, CPA" <a@b.example> ')).toBe('a@b.example');
    expect(addressOf(' no-reply@portico.example ')).toBe('no-reply@portico.example');
  });
});
