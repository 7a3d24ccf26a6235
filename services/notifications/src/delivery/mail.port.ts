export interface OutgoingEmail {
  /** The outbound message id; providers may use it to recognise a retry of the same message. */
  id: string;
  to: string;
  subject: string;
  /** The From display name (the firm's), with the deployment's address; absent: MAIL_FROM as it is. */
  senderName?: string;
  text: string;
  html?: string;
}

/**
 * Where email goes. `deliver` hands it to a provider; `keep` leaves it in the local outbox, where a
 * developer reads it (status `kept`). `send` throws a DeliveryError when the provider refuses.
 */
export interface MailPort {
  readonly mode: 'deliver' | 'keep';
  /** `signal` aborts the attempt when the worker stops waiting for it. */
  send(mail: OutgoingEmail, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

export const MAIL_PORT = Symbol('MailPort');
