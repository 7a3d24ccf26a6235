// Gzip copies of the built text files (`main.3fec06be.js.gz` beside `main.3fec06be.js`), so the static
// server sends compressed bytes without compressing on every request: nginx with `gzip_static on`
// (infra/docker/frontend-nginx.conf) and the local server (frontends/serve-static.mjs) serve the copy
// to a browser that accepts gzip. The sign-in page's 353 KB of script are 106 KB on the wire.
import { gzipSync } from 'node:zlib';
import { rspack } from '@rspack/core';

/** What is worth compressing: text formats only, and not tiny files (the header costs more). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
const MIN_BYTES = 1024;

// A file replaced where the build is deployed would be shadowed by its copy; the only such file, the
// shell's runtime configuration, is left out of production builds (see the copy of public/ in index.mjs).
const precompressible = (name, bytes) => COMPRESSIBLE.test(name) && bytes >= MIN_BYTES;

export class PrecompressPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        // After every other step (minification, banners, the HTML page, copied files).
        { name: 'PrecompressPlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        (assets) => {
          for (const [name, source] of Object.entries(assets)) {
            const bytes = source.buffer();
            if (!precompressible(name, bytes.length)) continue;
            compilation.emitAsset(`${name}.gz`, new rspack.sources.RawSource(gzipSync(bytes, { level: 9 })));
          }
        },
      );
    });
  }
}
