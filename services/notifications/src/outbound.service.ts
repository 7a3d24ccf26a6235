import { Inject, Injectable } from '@nestjs/common';
import { injectTraceContext, isUuid } from '@portico/platform';
import type { ListOutboxRequest, SendEmailRequest, SendSmsRequest } from '@portico/proto';
import type { NotificationsConfig } from './config.js';
import { CONFIG } from './config.js';
import { MAIL_PORT, type MailPort } from './delivery/mail.port.js';
import { SMS_PORT, type SmsPort } from './delivery/sms.port.js';
import { DeliveryWorker } from './delivery.worker.js';
import { OutboundErrors } from './outbound.errors.js';
import {
  isValidKind,
  LIMITS,
  listLimit,
  normaliseEmail,
  normaliseUsPhone,
  parseChannel,
} from './outbound.rules.js';
import { OutboxRepository } from './outbox.repository.js';
import type { Channel, NewOutboundMessage, OutboundMessage } from './schema.js';

export interface Queued {
  id: string;
  status: string;
}

export interface OutboxEntry {
  id: string;
  channel: string;
  to: string;
  subject: string;
  senderName: string;
  text: string;
  html: string;
  kind: string;
  status: string;
  attempts: number;
  createdAt: string;
  sentAt: string;
  lastError: string;
}

type Common = Pick<SendEmailRequest, 'kind' | 'firmId' | 'idempotencyKey' | 'validForSeconds'>;

/**
 * Accepts outbound email and SMS: validates, stores the message (once per idempotency key) and leaves
 * delivery to the worker. With a provider configured a message is `queued`; in outbox mode it is `kept`.
 */
@Injectable()
export class OutboundService {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly worker: DeliveryWorker,
    @Inject(MAIL_PORT) private readonly mail: MailPort,
    @Inject(SMS_PORT) private readonly sms: SmsPort,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async sendEmail(request: SendEmailRequest): Promise<Queued> {
    const to = normaliseEmail(request.to);
    if (!to) throw OutboundErrors.invalidEmail();
    const subject = request.subject.trim();
    if (!subject) throw OutboundErrors.invalidMessage('subject', 'A subject is required');
    if (subject.length > LIMITS.subjectLength || /[\r\n]/.test(subject)) {
      throw OutboundErrors.invalidMessage(
        'subject',
        'The subject must be one line of at most 998 characters',
      );
    }
    if (!request.text.trim() && !request.html.trim()) {
      throw OutboundErrors.invalidMessage('text', 'A message body is required');
    }
    if (request.text.length > LIMITS.bodyLength || request.html.length > LIMITS.bodyLength) {
      throw OutboundErrors.invalidMessage('text', 'The message body is too long');
    }
    const senderName = request.senderName.replace(/\s+/g, ' ').trim();
    if (senderName.length > LIMITS.senderNameLength) {
      throw OutboundErrors.invalidMessage('sender_name', 'The sender name is longer than 200 characters');
    }
    return this.store('email', this.mail.mode, request, {
      recipient: to,
      subject,
      senderName,
      text: request.text,
      html: request.html || null,
    });
  }

  async sendSms(request: SendSmsRequest): Promise<Queued> {
    const to = normaliseUsPhone(request.to);
    if (!to) throw OutboundErrors.invalidPhone();
    const text = request.text.trim();
    if (!text) throw OutboundErrors.invalidMessage('text', 'A message text is required');
    if (text.length > LIMITS.smsLength) {
      throw OutboundErrors.invalidMessage('text', 'The message text is longer than 1600 characters');
    }
    return this.store('sms', this.sms.mode, request, { recipient: to, subject: null, text, html: null });
  }

  /** The newest messages, for developers and tests; refused unless DEV_OUTBOX_ENABLED. */
  async listOutbox(request: ListOutboxRequest): Promise<OutboxEntry[]> {
    if (!this.config.DEV_OUTBOX_ENABLED) throw OutboundErrors.outboxDisabled();
    const channel = parseChannel(request.channel);
    if (channel === 'invalid')
      throw OutboundErrors.invalidMessage('channel', 'The channel must be email or sms');
    const rawTo = request.to.trim();
    const recipient = rawTo
      ? rawTo.includes('@')
        ? rawTo.toLowerCase()
        : (normaliseUsPhone(rawTo) ?? rawTo)
      : undefined;
    const rows = await this.outbox.list({ recipient, channel, limit: listLimit(request.limit) });
    return rows.map(toEntry);
  }

  private async store(
    channel: Channel,
    mode: 'deliver' | 'keep',
    common: Common,
    content: Pick<NewOutboundMessage, 'recipient' | 'subject' | 'senderName' | 'text' | 'html'>,
  ): Promise<Queued> {
    // In production a channel without a provider refuses (503), so the caller says the code or link was
    // not sent (identity shows the spec's failure message) instead of being told 'kept', which it took
    // for sent while nothing left. Outside production the outbox is where messages are read.
    if (mode === 'keep' && this.config.NODE_ENV === 'production') throw OutboundErrors.noProvider(channel);
    const kind = common.kind.trim() || 'general';
    if (!isValidKind(kind)) {
      throw OutboundErrors.invalidMessage(
        'kind',
        'The kind must be lower-case letters, digits and underscores',
      );
    }
    if (common.firmId && !isUuid(common.firmId)) {
      throw OutboundErrors.invalidMessage('firm_id', 'The firm id must be a UUID');
    }
    const idempotencyKey = common.idempotencyKey.trim() || null;
    if (idempotencyKey && idempotencyKey.length > LIMITS.idempotencyKeyLength) {
      throw OutboundErrors.invalidMessage('idempotency_key', 'The idempotency key is too long');
    }
    const { row, created } = await this.outbox.insertOnce({
      ...content,
      channel,
      kind,
      firmId: common.firmId || null,
      idempotencyKey,
      status: mode === 'keep' ? 'kept' : 'queued',
      traceParent: injectTraceContext({}).traceparent ?? null,
      expiresAt: common.validForSeconds ? new Date(Date.now() + common.validForSeconds * 1_000) : null,
    });
    if (created && row.status === 'queued') this.worker.nudge();
    return { id: row.id, status: row.status };
  }
}

function toEntry(row: OutboundMessage): OutboxEntry {
  return {
    id: row.id,
    channel: row.channel,
    to: row.recipient,
    subject: row.subject ?? '',
    senderName: row.senderName,
    text: row.text,
    html: row.html ?? '',
    kind: row.kind,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? '',
    lastError: row.lastError ?? '',
  };
}
