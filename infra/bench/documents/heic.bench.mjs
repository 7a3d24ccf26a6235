// HEIC decoding and the event loop: how long the documents service's event loop is held while a photo is
// decoded, by the service's decoders (services/documents/src/previews/heic-decoders.ts, worker threads)
// against the baseline of libheif called on the event loop in this process, alternated in each round.
// A timer every 5 ms records the longest gap between its ticks: while it is held, no other request of the
// replica is answered. The photo (BENCH_HEIC_MP megapixels of noise, 12 by default, a phone's photo) is
// encoded once with Debian's heif-enc (apt-get install libheif-examples) and kept in the temp folder; the
// bench says so and stops when heif-enc is missing.
// Usage: npm run bench -- documents  (after npm run build). BENCH_HEIC_ROUNDS (3).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const documentsDir = join(import.meta.dirname, '../../../services/documents');
const require = createRequire(join(documentsDir, 'package.json'));
const megapixels = Number(process.env.BENCH_HEIC_MP ?? 12);
const rounds = Number(process.env.BENCH_HEIC_ROUNDS ?? 3);

/** A photo-sized HEIC of noise (which compresses as badly as a photo), made once. */
async function photo() {
  const width = Math.round(Math.sqrt((megapixels * 1e6 * 4) / 3));
  const height = Math.round((width * 3) / 4);
  const heic = join(tmpdir(), `portico-bench-${width}x${height}.heic`);
  if (existsSync(heic)) return { heic: readFileSync(heic), width, height };
  const sharp = require('sharp');
  const png = join(tmpdir(), `portico-bench-${width}x${height}.png`);
  await sharp({ create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .png()
    .toFile(png);
  execFileSync('heif-enc', ['-q', '50', '--no-alpha', '-o', heic, png]);
  return { heic: readFileSync(heic), width, height };
}

/** The wall time of `work` and the longest the event loop went without running a 5 ms timer. */
async function held(work) {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  // One more tick, which a held loop runs only once it is free.
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(ticker);
  return { ms, longest };
}

if (spawnSync('heif-enc', ['--version']).error) {
  console.log('heif-enc is missing (apt-get install libheif-examples): the HEIC bench is skipped');
} else {
  const { heic, width, height } = await photo();
  const decodeHeic = require('heic-decode');
  const { heicDecoders } = await import(join(documentsDir, 'dist/previews/heic-decoders.js'));
  const runs = { baseline: [], portico: [] };
  const variants = {
    baseline: () => decodeHeic({ buffer: heic }),
    portico: () => heicDecoders.decode(heic),
  };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ['portico', 'baseline'] : ['baseline', 'portico'];
    for (const name of order) runs[name].push(await held(variants[name]));
  }
  await heicDecoders.close();
  const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
  const row = (label, name) => [
    label,
    median(runs[name].map((r) => r.ms)).toFixed(0),
    median(runs[name].map((r) => r.longest)).toFixed(0),
  ];
  console.log(
    `decoding a ${width} x ${height} HEIC (${(heic.length / 1024 / 1024).toFixed(1)} MB), ${rounds} rounds (median)\n`,
  );
  const lines = [
    ['', 'decode ms', 'event loop held, longest ms'],
    row('baseline (libheif on the event loop)', 'baseline'),
    row('portico (HEIC decoders, worker threads)', 'portico'),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((line) => line[i].length)));
  for (const line of lines) console.log(line.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  const ratio = median(runs.portico.map((r) => r.longest)) / median(runs.baseline.map((r) => r.longest));
  console.log(`\nevent loop held, ratio (portico / baseline): ${ratio.toFixed(3)}`);
}
