// Listing a folder of 10,000 items through the gateway's get_documents as the file manager asks it (the
// lean shape, compressed as a browser accepts it), and in the full item shape for comparison: p50/p95
// and payload size over sequential requests, as one browser tab makes them. The baseline is the
// same rows read straight from PostgreSQL and serialised to JSON in this process, in the same run.
// Usage: npm run bench -- documents  (after npm run build). BENCH_LIST_ITEMS, BENCH_LIST_RUNS,
// BENCH_PROFILE=<dir> (CPU profiles of documents, identity and the gateway).
import pg from 'pg';
import { cpuPer, percentile, seedLargeFolder, startDocumentsStack } from './stack.mjs';

const total = Number(process.env.BENCH_LIST_ITEMS ?? 10_000);
const runs = Number(process.env.BENCH_LIST_RUNS ?? 40);
const profile = process.env.BENCH_PROFILE
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
  : [];
const FOLDER = 'Archive';
// An item's own columns; listing_json (the lean JSON the trigger keeps) is Portico's shortcut, not data.
const ITEM_COLUMNS = `id, firm_id, company_id, folder, name, type, storage_key, size, content_type, description, tags,
  is_protected, is_system, hidden, upload_type, questionnaire_id, extracted_document_id, parent_document_id,
  preview_key, preview_status, created_by, created_at, updated_at, deleted_at`;

const stack = await startDocumentsStack({ profile });
const db = new pg.Client({ connectionString: stack.documentsAdminUrl });
await db.connect();
try {
  const seeded = await seedLargeFolder(stack, db, FOLDER, total);

  const list = (lean = true) =>
    stack.call('/integrations/get_documents', { companyId: stack.companyId, path: `/${FOLDER}`, lean });
  let first;
  try {
    first = await list();
  } catch (err) {
    console.log(`get_documents of ${seeded} items fails: ${err.message}`);
    throw err;
  }
  const full = await list(false);
  for (const answer of [first, full])
    if (answer.body.documents.length !== total)
      throw new Error(`listed ${answer.body.documents.length} of ${total} items`);

  const baselineQuery = async () => {
    const { rows } = await db.query(
      `select ${ITEM_COLUMNS} from items where firm_id = $1 and company_id = $2 and folder = $3 and not hidden and deleted_at is null
       order by type desc, lower(name), created_at desc`,
      [stack.firmId, stack.companyId, `/${FOLDER}`],
    );
    return Buffer.byteLength(JSON.stringify(rows));
  };
  const measure = async (work) => {
    for (let i = 0; i < 5; i++) await work();
    const durations = [];
    let bytes = 0;
    const before = stack.cpu();
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      bytes = await work();
      durations.push(performance.now() - started);
    }
    return { durations, bytes, cpu: cpuPer(before, stack.cpu(), runs) };
  };
  const baseline = await measure(baselineQuery);
  const portico = await measure(async () => (await list()).bytes);
  const porticoFull = await measure(async () => (await list(false)).bytes);

  const row = (name, r) => [
    name,
    percentile(r.durations, 50).toFixed(1),
    percentile(r.durations, 95).toFixed(1),
    `${(r.bytes / 1024 / 1024).toFixed(2)} MB`,
  ];
  const lines = [
    ['', 'p50 ms', 'p95 ms', 'payload'],
    row('baseline (pg query + JSON.stringify)', baseline),
    row('portico (gateway get_documents, lean)', portico),
    row('portico (gateway get_documents, full items)', porticoFull),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(
    `listing a folder of ${total} items, ${runs} sequential requests after 5 warm-up; the gateway's answers` +
      ` come with content-encoding ${first.encoding}, as a browser asks (payload: the JSON's size)\n`,
  );
  console.log(lines.map((l) => l.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
  console.log(`\nCPU ms per request, lean:       ${portico.cpu}`);
  console.log(`CPU ms per request, full items: ${porticoFull.cpu}`);
  const p95 = percentile(portico.durations, 95);
  console.log(
    `\np95 ratio (portico / baseline): ${(p95 / percentile(baseline.durations, 95)).toFixed(2)}` +
      `   p95 through the gateway: ${p95.toFixed(1)} ms   goal < 150 ms`,
  );
} finally {
  await db.end();
  await stack.stop();
}
