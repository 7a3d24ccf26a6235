export * from './start-notifications.js';
