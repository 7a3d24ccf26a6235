// Build helpers shared by the shell and every remote: one rspack configuration, one federation setup.
//   host:   frontendConfig({ dir, name: 'shell', kind: 'host', port: 8080 })
// A remote is built with ModuleFederationPlugin (its container, manifest and shared singletons). The host
// is built without it: its first screen (the sign-in page) does not pay for the federation runtime. The
// host creates the federation instance with the runtime API when it first needs a remote, and provides
// its own React, router, data-fetching client and kit as the shared singletons (see the shell's
// src/remotes/federation.ts); `__PORTICO_SHARED_VERSIONS__` gives it the versions of this file.
//   remote: frontendConfig({ dir, name: 'client', kind: 'remote', port: 8081,
//                            exposes: { './descriptor': './src/descriptor.ts', './App': './src/App.tsx' } })
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { PrecompressPlugin } from './precompress.mjs';
import { KIT_ONLY_PACKAGES, SHARED_VERSIONS, sharedSingletons } from './shared.mjs';

export { KIT_ONLY_PACKAGES, PrecompressPlugin, SHARED_VERSIONS, sharedSingletons };

/** The browsers the portal supports: those Mantine (the component library) is tested on. */
export const BROWSERS = [
  'chrome >= 108',
  'edge >= 108',
  'firefox >= 101',
  'safari >= 15.4',
  'ios_saf >= 15.4',
];

const runtimePlugin = fileURLToPath(new URL('./federation-runtime-plugin.ts', import.meta.url));

/** A remote must reach the component library through the kit, and agree on every shared version. */
function checkPackage(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const deps = { ...pkg.dependencies };
  for (const name of KIT_ONLY_PACKAGES) {
    if (deps[name]) throw new Error(`${pkg.name}: import ${name} through @portico/kit, do not depend on it`);
  }
  for (const [name, version] of Object.entries(SHARED_VERSIONS)) {
    if (name.includes('/') && !name.startsWith('@')) continue;
    if (deps[name] && deps[name] !== version) {
      console.error(`${pkg.name}: ${name} is ${deps[name]} but the shared singleton is ${version}`);
    }
  }
  return pkg;
}

/**
 * @param {{ dir: string, name: string, kind: 'host'|'remote', port: number,
 *           exposes?: Record<string, string>, publicDir?: string }} options
 */
export function frontendConfig({ dir, name, kind, port, exposes = {} }) {
  checkPackage(dir);
  return (_env, argv) => {
    const production = argv.mode === 'production';
    const federation =
      kind === 'host'
        ? new rspack.DefinePlugin({ __PORTICO_SHARED_VERSIONS__: JSON.stringify(SHARED_VERSIONS) })
        : new ModuleFederationPlugin({
            name,
            filename: 'remoteEntry.js',
            exposes,
            remotes: {},
            shared: sharedSingletons(),
            runtimePlugins: [runtimePlugin],
            // 'loaded-first': a remote takes the singletons the host has already loaded. The default
            // ('version-first') loads every remote entry to collect shared versions, so one remote that
            // is down would break every area and the shell with it.
            shareStrategy: 'loaded-first',
            manifest: true,
            dts: false,
            // Browser-only builds: the runtime drops its Node.js loading paths (about 2 KB gzip).
            experiments: { optimization: { target: 'web' } },
          });
    return {
      context: dir,
      mode: production ? 'production' : 'development',
      // Production maps are written beside the bundles but not named in them: browsers do not fetch
      // them, the images do not ship them (infra/docker/frontend.Dockerfile keeps them in a stage of
      // their own, for turning a reported stack into source lines), and nginx refuses them.
      devtool: production ? 'hidden-source-map' : 'eval-cheap-module-source-map',
      entry: { main: './src/index.ts' },
      output: {
        path: join(dir, 'dist'),
        // The shell serves deep links (/signin, /admin/...) from one index.html; remotes resolve their
        // chunks relative to their manifest.
        publicPath: kind === 'host' ? '/' : 'auto',
        filename: production ? 'js/[name].[contenthash:8].js' : 'js/[name].js',
        chunkFilename: production ? 'js/[name].[contenthash:8].js' : 'js/[name].js',
        cssFilename: production ? 'css/[name].[contenthash:8].css' : 'css/[name].css',
        cssChunkFilename: production ? 'css/[name].[contenthash:8].css' : 'css/[name].css',
        uniqueName: `portico_${name}`,
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
        extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      },
      module: {
        rules: [
          {
            test: /\.[cm]?tsx?$/,
            exclude: /node_modules/,
            loader: 'builtin:swc-loader',
            type: 'javascript/auto',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                target: 'es2022',
                transform: { react: { runtime: 'automatic', development: !production } },
              },
            },
          },
          { test: /\.css$/, type: 'css/auto' },
        ],
      },
      plugins: [
        new rspack.HtmlRspackPlugin({ template: join(dir, 'index.html'), minify: production }),
        new rspack.CopyRspackPlugin({
          patterns: [
            {
              from: join(dir, 'public'),
              to: '.',
              noErrorOnMissing: true,
              // The shell's runtime configuration in public/ is the dev server's (localhost URLs). A
              // production build must not carry it: it would win over what the deployment provides.
              ...(production ? { globOptions: { ignore: ['**/runtime-config.json'] } } : {}),
            },
          ],
        }),
        new rspack.DefinePlugin({
          'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development'),
        }),
        federation,
        ...(production ? [new PrecompressPlugin()] : []),
      ],
      optimization: {
        // The host's initial code in two files, React and the rest, requested together by the HTML:
        // Chromium parses each on its own background thread as it streams in, so the sign-in page waits
        // for the larger of the two instead of both in a row (the form 4% sooner than with one file, on a
        // 2-core machine). No compile hint (`//# allFunctionsCalledOnLoad`) on them: compiling every
        // function eagerly in the background made the form 7 to 14% later there, though it took less of
        // the main thread's time.
        ...(kind === 'host'
          ? {
              splitChunks: {
                cacheGroups: {
                  react: {
                    test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/,
                    name: 'react',
                    chunks: 'initial',
                    enforce: true,
                  },
                },
              },
            }
          : {}),
        minimize: production,
        minimizer: [
          new rspack.SwcJsMinimizerRspackPlugin(),
          // CSS is lowered only as far as the browsers the component library supports need: without
          // targets, every `:dir()` rule of Mantine's stylesheets becomes three (`-webkit-any`, `-moz-any`
          // and `:is` over nineteen `:lang()`s), about twice the bytes and much slower selector matching.
          new rspack.LightningCssMinimizerRspackPlugin({ minimizerOptions: { targets: BROWSERS } }),
        ],
      },
      performance: { hints: false },
      devServer: {
        port,
        historyApiFallback: kind === 'host',
        headers: { 'Access-Control-Allow-Origin': '*' },
        static: false,
      },
    };
  };
}
