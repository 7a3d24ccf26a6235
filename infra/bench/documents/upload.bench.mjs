// Upload throughput: 200 files of 1 MB into one folder, the way the file manager uploads a folder
// (frontends/documents/src/upload/upload.ts): one upload_links call through the gateway for all the
// files, a PUT of each file's bytes to its presigned URL over HTTP, PARALLEL_PUTS at once as the browser
// does, and process_document calls for the files landed so far while the rest are sent (the file
// manager's own `Filer`, FILE_BATCH at least, one call at a time; the service checks each object's first
// bytes and its PDF trailer with ranged reads, and files them). The baseline is the S3 SDK putting the same bytes into
// the same s3rver with the same concurrency, in the same run.
// Usage: npm run bench -- documents  (after npm run build). BENCH_UPLOAD_FILES, BENCH_UPLOAD_CONCURRENCY,
// BENCH_UPLOAD_ROUNDS (2: baseline and Portico in alternating order), BENCH_UPLOAD_FILE_BATCH (the
// filing batch; at least BENCH_UPLOAD_FILES files one process call after the last PUT),
// BENCH_PROFILE=<dir> (CPU profiles of documents, identity and the gateway).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Filer } from '../../../frontends/documents/src/upload/filing.ts';
import { cpuPer, pdfOfSize, percentile, pooled, s3ClientOf, startDocumentsStack } from './stack.mjs';

const files = Number(process.env.BENCH_UPLOAD_FILES ?? 200);
const uploadCode = readFileSync(
  join(import.meta.dirname, '../../../frontends/documents/src/upload/upload.ts'),
  'utf8',
);
/** The file manager's PUTs at once and filing batch (its upload code), read so the two stay equal. */
const clientParallelPuts = Number(/export const PARALLEL_PUTS = (\d+)/.exec(uploadCode)?.[1] ?? 4);
const fileBatch = Number(
  process.env.BENCH_UPLOAD_FILE_BATCH ?? /export const FILE_BATCH = (\d+)/.exec(uploadCode)?.[1] ?? 20,
);
const concurrency = Number(process.env.BENCH_UPLOAD_CONCURRENCY ?? clientParallelPuts);
const rounds = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 2);
const MB = 1024 * 1024;
const profile = process.env.BENCH_PROFILE
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
  : [];

const stack = await startDocumentsStack({ profile });
try {
  const body = await pdfOfSize(MB);
  const s3 = s3ClientOf(stack);

  // The PUT to the presigned URL with node's http client and keep-alive, as the SDK sends the baseline's
  // PutObject: the two differ by what the server side does, not by the client library (fetch here costs
  // the benchmark process about three times the CPU per megabyte of node's http, on the same cores).
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const putTo = (link, bytes) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        link.url,
        { method: link.method, headers: { ...link.headers, 'content-length': bytes.length }, agent },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            res.statusCode < 300
              ? resolve()
              : reject(new Error(`PUT answered ${res.statusCode}: ${Buffer.concat(chunks)}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(bytes);
    });

  const baselineRun = (label, count) =>
    pooled(count, concurrency, (i) =>
      s3.send(
        new PutObjectCommand({
          Bucket: stack.s3.bucket,
          Key: `bench/${label}/${i}.pdf`,
          Body: body,
          ContentType: 'application/pdf',
        }),
      ),
    );

  // The file manager's flow for one folder: links for all its files, the PUTs, and the process calls of
  // its Filer as files land. 'process' is the filing left after the last PUT.
  const steps = { presign: [], put: [], process: [] };
  const porticoRun = async (folder, count) => {
    const names = Array.from({ length: count }, (_, i) => `scan-${String(i).padStart(4, '0')}.pdf`);
    const t0 = performance.now();
    const links = await stack.call('/integrations/upload_links', {
      companyId: stack.companyId,
      path: folder,
      files: names.map((name) => ({ name, size: body.length })),
    });
    const t1 = performance.now();
    const filedFiles = [];
    let refused;
    const filer = new Filer(async (batch) => {
      try {
        const processed = await stack.call('/integrations/process_document', {
          companyId: stack.companyId,
          path: folder,
          uploadIds: batch.map((l) => l.uploadId),
        });
        filedFiles.push(...processed.body.files.filter((f) => !f.invalid && !f.is_duplicate));
      } catch (err) {
        refused = err;
      }
    }, fileBatch);
    const durations = await pooled(count, concurrency, async (i) => {
      const link = links.body.links[i];
      await putTo(link, body);
      filer.add({ index: i, uploadId: link.upload_id });
    });
    const t2 = performance.now();
    await filer.finish(false);
    const t3 = performance.now();
    if (refused || filedFiles.length !== count)
      throw new Error(`filed ${filedFiles.length} of ${count}: ${refused ?? ''}`);
    steps.presign.push(t1 - t0);
    steps.put.push(t2 - t1);
    steps.process.push(t3 - t2);
    return durations;
  };

  const timed = async (run) => {
    const started = performance.now();
    const durations = await run();
    return { seconds: (performance.now() - started) / 1000, durations };
  };

  // Warm both paths (connections, JIT, the folder), then measure in rounds, the order alternating
  // (baseline first, then Portico first), so a change in the machine's load weighs on both alike.
  await stack.call('/integrations/create_folder', { companyId: stack.companyId, path: '', name: 'Bench' });
  await baselineRun('warm', 12);
  await porticoRun('/Bench/warm', 12);
  for (const list of Object.values(steps)) list.length = 0;
  const results = { baseline: [], portico: [] };
  const cpuUsed = { baseline: [], portico: [] };
  const measure = async (which, round) => {
    const before = stack.cpu();
    results[which].push(
      await timed(() =>
        which === 'baseline' ? baselineRun(`run${round}`, files) : porticoRun(`/Bench/run${round}`, files),
      ),
    );
    cpuUsed[which].push([before, stack.cpu()]);
  };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ['portico', 'baseline'] : ['baseline', 'portico'];
    for (const which of order) await measure(which, round);
  }
  const merged = (list) => ({
    seconds: list.reduce((sum, r) => sum + r.seconds, 0),
    durations: list.flatMap((r) => r.durations),
  });
  const baseline = merged(results.baseline);
  const portico = merged(results.portico);
  const cpuSum = (pairs) => {
    const out = {};
    for (const [before, after] of pairs)
      for (const k of Object.keys(after)) out[k] = (out[k] ?? 0) + after[k] - before[k];
    return out;
  };
  const zero = Object.fromEntries(Object.keys(stack.cpu()).map((k) => [k, 0]));

  const mb = (rounds * files * body.length) / MB;
  const row = (name, r) => [
    name,
    ((rounds * files) / r.seconds).toFixed(1),
    (mb / r.seconds).toFixed(1),
    percentile(r.durations, 50).toFixed(1),
    percentile(r.durations, 95).toFixed(1),
  ];
  const lines = [
    ['', 'files/s', 'MB/s', 'p50 ms/PUT', 'p95 ms/PUT'],
    row('baseline (S3 SDK PutObject)', baseline),
    row('portico (links, PUTs, process)', portico),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(
    `${files} files of ${(body.length / MB).toFixed(2)} MB (PDF) into one folder, ${concurrency} PUTs at once, ` +
      `${rounds} rounds\n`,
  );
  console.log(lines.map((l) => l.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
  console.log(
    `\nportico per step, ms for the whole folder, by round: ${Object.entries(steps)
      .map(([k, v]) => `${k} ${v.map((ms) => ms.toFixed(0)).join(' / ')}`)
      .join(', ')}`,
  );
  console.log(
    `ratio by round: ${results.baseline
      .map((b, i) => (b.seconds / results.portico[i].seconds).toFixed(2))
      .join(', ')}`,
  );
  console.log(`CPU ms per file, baseline: ${cpuPer(zero, cpuSum(cpuUsed.baseline), rounds * files)}`);
  console.log(`CPU ms per file, portico:  ${cpuPer(zero, cpuSum(cpuUsed.portico), rounds * files)}`);
  const ratio = baseline.seconds / portico.seconds;
  console.log(`\nthroughput ratio (portico / baseline): ${ratio.toFixed(2)}   goal >= 0.70`);
  agent.destroy();
  s3.destroy();
} finally {
  await stack.stop();
}
