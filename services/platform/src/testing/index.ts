export * from './captured-log.js';
export * from './chromium.js';
export * from './free-port.js';
export * from './infrastructure.js';
export * from './nats.js';
export * from './postgres.js';
export * from './query-plans.js';
export * from './s3.js';
