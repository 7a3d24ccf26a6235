import { defineEvent, defineRpc } from '../contract.js';
import * as outbound from '../gen/portico/notifications/v1/outbound_pb.js';

/** Every request/reply subject the notifications service answers. */
export const Notifications = {
  sendEmail: defineRpc({
    subject: 'notifications.email.send.v1',
    request: outbound.SendEmailRequestSchema,
    response: outbound.QueuedMessageSchema,
  }),
  sendSms: defineRpc({
    subject: 'notifications.sms.send.v1',
    request: outbound.SendSmsRequestSchema,
    response: outbound.QueuedMessageSchema,
  }),
  listOutbox: defineRpc({
    subject: 'notifications.outbox.list.v1',
    request: outbound.ListOutboxRequestSchema,
    response: outbound.ListOutboxResponseSchema,
  }),
} as const;

export const NotificationsEvents = {
  maintenanceAlert: defineEvent({
    subject: 'events.notifications.maintenance.alert.v1',
    message: outbound.MaintenanceAlertSchema,
  }),
} as const;
