// Upload throughput: 200 files of 1 MB, each through the gateway's upload_links, a PUT of the bytes to
// the presigned URL over HTTP as a browser does, then process_document (which reads the object back,
// checks its first bytes, opens the PDF and files it). The baseline is the S3 SDK putting the same bytes
// into the same s3rver with the same concurrency, in the same run.
// Usage: npm run bench -- documents  (after npm run build). BENCH_UPLOAD_FILES, BENCH_UPLOAD_CONCURRENCY,
// BENCH_PROFILE=<dir> (CPU profiles of documents, identity and the gateway).
import { randomBytes } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PDFDocument } from 'pdf-lib';
import { cpuPer, percentile, pooled, startDocumentsStack } from './stack.mjs';

const files = Number(process.env.BENCH_UPLOAD_FILES ?? 200);
const concurrency = Number(process.env.BENCH_UPLOAD_CONCURRENCY ?? 6);
const MB = 1024 * 1024;
const profile = process.env.BENCH_PROFILE
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
  : [];

/** A valid one-page PDF of about 1 MB: a page and an incompressible embedded stream. */
async function pdfOfOneMegabyte() {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  doc.context.register(doc.context.stream(randomBytes(MB - 1_200)));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

const stack = await startDocumentsStack({ profile });
try {
  const body = await pdfOfOneMegabyte();
  const s3 = new S3Client({
    region: stack.s3.region,
    endpoint: stack.s3.endpoint,
    forcePathStyle: true,
    credentials: {
      accessKeyId: stack.s3.env.S3_ACCESS_KEY_ID,
      secretAccessKey: stack.s3.env.S3_SECRET_ACCESS_KEY,
    },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
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

  const steps = { presign: [], put: [], process: [] };
  const porticoRun = (folder, count) =>
    pooled(count, concurrency, async (i) => {
      const name = `scan-${String(i).padStart(4, '0')}.pdf`;
      const t0 = performance.now();
      const links = await stack.call('/integrations/upload_links', {
        companyId: stack.companyId,
        path: folder,
        files: [{ name, size: body.length }],
      });
      const link = links.body.links[0];
      const t1 = performance.now();
      const put = await fetch(link.url, { method: link.method, headers: link.headers, body });
      if (!put.ok) throw new Error(`PUT answered ${put.status}: ${await put.text()}`);
      await put.arrayBuffer();
      const t2 = performance.now();
      const processed = await stack.call('/integrations/process_document', {
        companyId: stack.companyId,
        path: folder,
        uploadIds: [link.upload_id],
      });
      const filed = processed.body.files[0];
      if (!filed || filed.invalid || filed.is_duplicate)
        throw new Error(`not filed: ${JSON.stringify(filed)}`);
      steps.presign.push(t1 - t0);
      steps.put.push(t2 - t1);
      steps.process.push(performance.now() - t2);
    });

  const timed = async (run) => {
    const started = performance.now();
    const durations = await run();
    return { seconds: (performance.now() - started) / 1000, durations };
  };

  // Warm both paths (connections, JIT, the folder), then measure.
  await stack.call('/integrations/create_folder', { companyId: stack.companyId, path: '', name: 'Bench' });
  await baselineRun('warm', 12);
  await porticoRun('/Bench/warm', 12);
  const cpu0 = stack.cpu();
  const baseline = await timed(() => baselineRun('run', files));
  const cpu1 = stack.cpu();
  for (const list of Object.values(steps)) list.length = 0;
  const portico = await timed(() => porticoRun('/Bench/run', files));
  const cpu2 = stack.cpu();

  const mb = (files * body.length) / MB;
  const row = (name, r) => [
    name,
    (files / r.seconds).toFixed(1),
    (mb / r.seconds).toFixed(1),
    percentile(r.durations, 50).toFixed(1),
    percentile(r.durations, 95).toFixed(1),
  ];
  const lines = [
    ['', 'files/s', 'MB/s', 'p50 ms/file', 'p95 ms/file'],
    row('baseline (S3 SDK PutObject)', baseline),
    row('portico (presign, PUT, process)', portico),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(`${files} files of ${(body.length / MB).toFixed(2)} MB (PDF), ${concurrency} at once\n`);
  console.log(lines.map((l) => l.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
  console.log(
    `\nportico per step, p50 / p95 ms: ${Object.entries(steps)
      .map(([k, v]) => `${k} ${percentile(v, 50).toFixed(1)} / ${percentile(v, 95).toFixed(1)}`)
      .join(', ')}`,
  );
  console.log(`CPU ms per file, baseline: ${cpuPer(cpu0, cpu1, files)}`);
  console.log(`CPU ms per file, portico:  ${cpuPer(cpu1, cpu2, files)}`);
  const ratio = baseline.seconds / portico.seconds;
  console.log(`\nthroughput ratio (portico / baseline): ${ratio.toFixed(2)}   goal >= 0.70`);
  s3.destroy();
} finally {
  await stack.stop();
}
