export interface OutgoingSms {
  id: string;
  /** The 10 digits of a US number. */
  to: string;
  text: string;
}

/** Where SMS goes; the same contract as MailPort. */
export interface SmsPort {
  readonly mode: 'deliver' | 'keep';
  send(sms: OutgoingSms, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

export const SMS_PORT = Symbol('SmsPort');
