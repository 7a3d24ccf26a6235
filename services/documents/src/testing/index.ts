export * from './start-documents.js';
