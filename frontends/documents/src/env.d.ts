declare const process: { env: { NODE_ENV: 'development' | 'production' | 'test' } };
declare module '*.css';
