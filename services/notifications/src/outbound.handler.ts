import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Rpc } from '@portico/platform';
import {
  type ListOutboxRequest,
  Notifications,
  type SendEmailRequest,
  type SendSmsRequest,
} from '@portico/proto';
import { OutboundService } from './outbound.service.js';

/** The NATS subjects of outbound email and SMS. Callers are services (identity), not end users. */
@Controller()
export class OutboundHandler {
  constructor(private readonly outbound: OutboundService) {}

  @Rpc(Notifications.sendEmail)
  sendEmail(@Payload() request: SendEmailRequest) {
    return this.outbound.sendEmail(request);
  }

  @Rpc(Notifications.sendSms)
  sendSms(@Payload() request: SendSmsRequest) {
    return this.outbound.sendSms(request);
  }

  @Rpc(Notifications.listOutbox)
  async listOutbox(@Payload() request: ListOutboxRequest) {
    return { messages: await this.outbound.listOutbox(request) };
  }
}
