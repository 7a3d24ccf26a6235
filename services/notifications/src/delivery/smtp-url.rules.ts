/**
 * What an SMTP_URL's query says about TLS, read as nodemailer reads it: decoded (a name or a value may
 * be percent-encoded), a parameter without a value as 0, and winning over the options the code passes.
 * Names are compared in any case, which refuses a little more than nodemailer would act on.
 */
function query(url: string): Array<[name: string, value: string]> {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => [name.toLowerCase(), value]);
  } catch {
    return [];
  }
}

/** Whether nodemailer reads the URL with the standard parser (else it falls back to a laxer one). */
export function isUrl(url: string): boolean {
  return URL.canParse(url);
}

/** Options that decide whether the connection is encrypted: SMTP_ALLOW_PLAINTEXT's alone to decide. */
const TLS_SWITCHES = new Set(['requiretls', 'ignoretls', 'opportunistictls', 'secure']);

/** The parameters of the URL that would decide it instead, whatever their value. */
export function tlsSwitches(url: string): string[] {
  return query(url)
    .map(([name]) => name)
    .filter((name) => TLS_SWITCHES.has(name));
}

/**
 * Whether the URL turns off the check of the server's certificate (`tls.rejectUnauthorized` anything but
 * true): against an attacker on the path that protects no better than no TLS at all.
 */
export function skipsCertificateCheck(url: string): boolean {
  return query(url).some(
    ([name, value]) => name === 'tls.rejectunauthorized' && value.toLowerCase() !== 'true',
  );
}

/** Options that make nodemailer log the SMTP conversation, messages included (sign-in codes, links). */
const LOGGING = new Set(['debug', 'logger', 'transactionlog']);

/** The parameters of the URL that would log what is sent, whatever their value. */
export function loggingSwitches(url: string): string[] {
  return query(url)
    .map(([name]) => name)
    .filter((name) => LOGGING.has(name));
}
