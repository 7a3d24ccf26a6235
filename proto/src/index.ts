export * from './contract.js';
export * from './contracts/identity.js';
export * from './contracts/notifications.js';
export * from './gen/portico/identity/v1/company_pb.js';
export * from './gen/portico/identity/v1/firm_pb.js';
export * from './gen/portico/identity/v1/session_pb.js';
export * from './gen/portico/identity/v1/user_pb.js';
export * from './gen/portico/notifications/v1/outbound_pb.js';
