// A folder downloaded as a zip: memory and time. A folder of BENCH_ZIP_FILES PDFs of BENCH_ZIP_FILE_MB
// (120 MB by default, under the spec's 150MB limit) zipped by download_folder through the gateway, once
// alone and then BENCH_ZIP_AT_ONCE at once (several advisors at the end of a season), while the documents
// process's resident memory is sampled from /proc every 5 ms. The baseline is the S3 SDK in this process
// reading the same objects and writing their bytes as one object, streamed (a multipart upload), in the
// same run: the least any zip built on the server must do.
// Usage: npm run bench -- documents  (after npm run build).
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { pdfOfSize, s3ClientOf, startDocumentsStack } from './stack.mjs';

const files = Number(process.env.BENCH_ZIP_FILES ?? 40);
const fileMb = Number(process.env.BENCH_ZIP_FILE_MB ?? 3);
const atOnce = Number(process.env.BENCH_ZIP_AT_ONCE ?? 3);
const MB = 1024 * 1024;
const FOLDER = 'Zip bench';

/** Resident memory of a process in bytes (VmRSS of /proc/<pid>/status). */
const rssOf = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

/** Runs `work` while sampling `rss` every 5 ms: its duration and the peak growth over the start. */
async function measured(rss, work) {
  const start = rss();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 5);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, rss());
  return { ms: performance.now() - started, growth: peak - start };
}

const stack = await startDocumentsStack();
try {
  const body = await pdfOfSize(fileMb * MB);
  await stack.call('/integrations/create_folder', { companyId: stack.companyId, path: '', name: FOLDER });
  const names = Array.from({ length: files }, (_, i) => `statement-${String(i).padStart(3, '0')}.pdf`);
  const links = await stack.call('/integrations/upload_links', {
    companyId: stack.companyId,
    path: `/${FOLDER}`,
    files: names.map((name) => ({ name, size: body.length })),
  });
  for (const link of links.body.links) {
    const res = await fetch(link.url, { method: link.method, headers: link.headers, body });
    if (!res.ok) throw new Error(`PUT answered ${res.status}`);
  }
  const processed = await stack.call('/integrations/process_document', {
    companyId: stack.companyId,
    path: `/${FOLDER}`,
    uploadIds: links.body.links.map((l) => l.upload_id),
  });
  const filed = processed.body.files.filter((f) => !f.invalid && !f.is_duplicate);
  if (filed.length !== files) throw new Error(`filed ${filed.length} of ${files}`);
  const keys = links.body.links.map((l) => new URL(l.url).pathname.split('/').slice(2).join('/'));
  const total = body.length * files;

  const s3 = s3ClientOf(stack);
  // The baseline: every object read in turn into one streamed upload of their bytes.
  let copies = 0;
  const baseline = async () => {
    const out = new PassThrough();
    const upload = new Upload({
      client: s3,
      params: { Bucket: stack.s3.bucket, Key: `bench/copy-${copies++}`, Body: out },
    });
    const writing = upload.done();
    for (const key of keys) {
      const object = await s3.send(new GetObjectCommand({ Bucket: stack.s3.bucket, Key: key }));
      for await (const chunk of object.Body) if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await writing;
  };
  const zipFolder = async () => {
    const answer = await stack.call('/integrations/download_folder', {
      companyId: stack.companyId,
      path: `/${FOLDER}`,
    });
    return answer.body;
  };

  const documentsRss = () => rssOf(stack.pids.documents);
  const ownRss = () => process.memoryUsage().rss;
  // The documents process's first zip (memory once taken is seldom given back, so a second zip alone
  // would show little growth whatever it held), checked: every file is in it.
  let zip;
  const one = await measured(documentsRss, async () => {
    zip = await zipFolder();
  });
  const zipped = await fetch(zip.document.data.link);
  const zipBytes = Buffer.from(await zipped.arrayBuffer());
  if (zip.file_count !== files || zipBytes.length < total)
    throw new Error(`the zip holds ${zip.file_count} files in ${zipBytes.length} bytes`);
  // The baseline after a warm-up of its own (the SDK's first use loads its modules).
  await baseline();
  const base = await measured(ownRss, baseline);
  const several = await measured(documentsRss, () => Promise.all(Array.from({ length: atOnce }, zipFolder)));
  const baseSeveral = await measured(ownRss, () => Promise.all(Array.from({ length: atOnce }, baseline)));

  const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
  const rows = [
    ['', 'time', 'peak memory growth'],
    ['baseline (S3 SDK, streamed copy, this process)', `${base.ms.toFixed(0)} ms`, mb(base.growth)],
    ['portico (download_folder, documents process)', `${one.ms.toFixed(0)} ms`, mb(one.growth)],
    [`baseline, ${atOnce} at once`, `${baseSeveral.ms.toFixed(0)} ms`, mb(baseSeveral.growth)],
    [`portico, ${atOnce} at once`, `${several.ms.toFixed(0)} ms`, mb(several.growth)],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`a folder of ${files} PDFs of ${fileMb} MB (${mb(total)}) as a zip\n`);
  console.log(rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
  const ratio = (a, b) => (a / Math.max(b, MB)).toFixed(2);
  console.log(
    `\nratios (portico / baseline): time ${(one.ms / base.ms).toFixed(2)}, memory ${ratio(one.growth, base.growth)};` +
      ` ${atOnce} at once: time ${(several.ms / baseSeveral.ms).toFixed(2)}, memory ${ratio(several.growth, baseSeveral.growth)}` +
      `\nmemory growth per zip against its size: ${(one.growth / total).toFixed(2)} (one), ${(several.growth / (total * atOnce)).toFixed(2)} (${atOnce} at once)`,
  );
} finally {
  await stack.stop();
}
