/** Injection tokens of the resources the gateway process opens before Nest starts. */
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
export const GATEWAY_LOGGER = Symbol('GATEWAY_LOGGER');
