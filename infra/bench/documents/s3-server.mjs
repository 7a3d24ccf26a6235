// s3rver for the documents benchmarks in a child process: reports its endpoint to the parent over IPC
// and stops on SIGTERM.
import { startS3Server } from '@portico/platform/testing';

const s3 = await startS3Server();
process.send({ endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, env: s3.env });
process.once('SIGTERM', async () => {
  await s3.stop();
  process.exit(0);
});
