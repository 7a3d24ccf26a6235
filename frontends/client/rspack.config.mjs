import { frontendConfig } from '@portico/kit/build';
import { rspack } from '@rspack/core';

// The client area: the client profile and entity profile editors, and the advisor's profile preview.
const config = frontendConfig({
  dir: import.meta.dirname,
  name: 'client',
  kind: 'remote',
  port: 8081,
  exposes: {
    './descriptor': './src/descriptor.ts',
    './Profile': './src/profile/ProfileRoute.tsx',
    './PreviewUser': './src/preview/PreviewUserRoute.tsx',
  },
});

// PORTICO_BUILD_MARKER labels a build (shown on the profile page); PORTICO_OUT_DIR builds elsewhere
// than dist/, e.g. a second release of this area served beside the first.
export default (env, argv) => {
  const built = config(env, argv);
  built.plugins.push(
    new rspack.DefinePlugin({
      'process.env.PORTICO_BUILD_MARKER': JSON.stringify(process.env.PORTICO_BUILD_MARKER ?? ''),
    }),
  );
  if (process.env.PORTICO_OUT_DIR) built.output.path = process.env.PORTICO_OUT_DIR;
  return built;
};
