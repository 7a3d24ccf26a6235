declare const process: {
  env: { NODE_ENV: 'development' | 'production' | 'test'; PORTICO_BUILD_MARKER?: string };
};
declare module '*.css';
