/** How many messages the worker sends at once and how long it holds each; tests shorten them. */
export interface DeliveryLimits {
  /** Sends in flight per channel: a stalled mail server holds up email only, never the SMS codes. */
  slotsPerChannel: number;
  /** How long a claimed message is reserved for its worker, after which another may claim it. */
  leaseMs: number;
  /** The longest one provider attempt may take; longer counts as a failed attempt, retried. */
  attemptLimitMs: number;
  /** Outcome writes stop this long before the lease ends, when another worker may claim the message. */
  outcomeMarginMs: number;
}

export const DELIVERY_LIMITS = Symbol('DeliveryLimits');

/**
 * An attempt (2 minutes at most) and the retried writes of its outcome end 30 s before the 5-minute lease
 * does, so no other worker claims a message that is still being sent or recorded.
 */
export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = {
  slotsPerChannel: 16,
  leaseMs: 5 * 60_000,
  attemptLimitMs: 2 * 60_000,
  outcomeMarginMs: 30_000,
};

/**
 * How long a stopping worker may still need after it stops claiming: the longest attempt, then the
 * writes of its outcome, tried again through a blip for the outcome margin. The pod's grace period covers
 * it (k8s/base/notifications/deployment.yaml): a process killed before then leaves a message it sent
 * unrecorded, sent again when its lease ends. A database away for longer has the same end as a crash.
 */
export const stopAllowanceMs = (limits: DeliveryLimits): number =>
  limits.attemptLimitMs + limits.outcomeMarginMs;
