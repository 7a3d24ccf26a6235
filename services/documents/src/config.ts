import { loadConfig, serviceEnv } from '@portico/platform';
import { z } from 'zod';
import { ZIP_PROGRESS_EVERY_MS } from './downloads/zip-progress.js';

export const documentsEnv = {
  ...serviceEnv,
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3103),
  /** Any S3-compatible endpoint; empty means AWS S3 itself. */
  S3_ENDPOINT: z.string().default(''),
  S3_BUCKET: z.string().min(1),
  S3_ACCESS_KEY_ID: z.string().min(1),
  S3_SECRET_ACCESS_KEY: z.string().min(1),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Lifetime of presigned upload links. */
  UPLOAD_LINK_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
  /** Lifetime of download links: short, the browser follows them at once. */
  DOWNLOAD_LINK_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** How long zip exports are kept: a bucket lifecycle rule in whole days, or the service's own sweep. */
  EXPORT_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  /**
   * The least time between two progress signals of one zip (the first and the last always go); 0 sends
   * one for every file.
   */
  ZIP_PROGRESS_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(ZIP_PROGRESS_EVERY_MS),
  /** HEIC conversions at once per process (about 270 MB each for 12 MP). */
  HEIC_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  /** Key of the reversible drop-link id obfuscation; changing it changes every firm's link. */
  DROP_LINK_KEY: z.string().min(8).default('portico-drop-link'),
  /**
   * What a firm's drop link takes from anonymous uploaders in 24 hours, counted by the links handed out
   * (files and declared sizes) that can still be used or were filed: storage and the emails to the
   * firm's users stay bounded.
   */
  DROP_OFF_DAILY_FILES: z.coerce.number().int().min(1).default(2_000),
  DROP_OFF_DAILY_GB: z.coerce.number().min(0.001).default(20),
  /**
   * The part of those one caller's address (an IPv6 one by its /64) may take, every link it was handed
   * counted: one anonymous caller cannot use up the firm's day by asking for links it never uses. Half by
   * default, so one caller can always make one full drop-off (999 files, the most one upload takes)
   * within the 2,000-file day: at a quarter (500 files) a drop-off of 999 was refused half-way. Links
   * signed again for the same uploads (a long drop-off's) count nothing more.
   */
  DROP_OFF_ADDRESS_SHARE: z.coerce.number().gt(0).max(1).default(0.5),
  /** The portal's public address, used in drop-off notification emails. */
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
};

export type DocumentsConfig = ReturnType<typeof loadDocumentsConfig>;

export function loadDocumentsConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(documentsEnv, env);
}
