import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { detached, firmScope, type Logger, Semaphore } from '@portico/platform';
import sharp, { type Sharp } from 'sharp';
import type { DocumentsConfig } from '../config.js';
import { recordItemEvent } from '../items/item.events.js';
import { type ItemChanges, ItemsRepository } from '../items/items.repository.js';
import type { ItemRow } from '../schema.js';
import { type ObjectStore, StorageKeys } from '../storage/object-store.js';
import { CONFIG, LOG, OBJECT_STORE } from '../tokens.js';
import { heicDecoders } from './heic-decoders.js';

/** What a conversion needs of an item. */
export type HeicItem = Pick<ItemRow, 'id' | 'firmId' | 'companyId' | 'storageKey' | 'size'>;

/**
 * A HEIC's primary image as a sharp pipeline over its decoded pixels, for the caller to encode once
 * (a preview's JPEG, a PDF page's JPEG) instead of through an intermediate PNG. libheif decodes it in a
 * worker thread, once its declared size is known to be at most MAX_IMAGE_PIXELS; sharp encodes on
 * libvips' threads.
 */
export async function heicPixels(heic: Buffer): Promise<Sharp> {
  const image = await heicDecoders.decode(heic);
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 4 },
  });
}

/** Decodes HEIC and encodes a JPEG with sharp. */
export async function heicToJpeg(heic: Buffer): Promise<Buffer> {
  return (await heicPixels(heic)).rotate().jpeg({ quality: 85 }).toBuffer();
}

/**
 * HEIC images are converted to a displayable JPEG off the request path: a 12 MP photo takes about
 * 1.5 s and 270 MB, so a few run at once per process and the rest wait. The result is cached in
 * storage beside the original and its state kept on the item (pending, ready, failed).
 */
@Injectable()
export class HeicConverter implements OnModuleDestroy {
  private readonly slots: Semaphore;
  private readonly running = new Map<string, Promise<void>>();
  /** Set on shutdown: conversions not yet started are left for the next opening of their file. */
  private stopping = false;

  constructor(
    private readonly repo: ItemsRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(LOG) private readonly log: Logger,
    @Inject(CONFIG) config: DocumentsConfig,
  ) {
    this.slots = new Semaphore(config.HEIC_CONCURRENCY);
  }

  /**
   * Queues a conversion unless one for the item is already queued. The request that asks for it (a
   * preview opened, an upload filed) is not waited for: the conversion runs outside its deadline, or
   * one finishing after it would be rolled back, the preview never saved and converted again on every
   * poll.
   */
  schedule(item: HeicItem): void {
    if (!item.storageKey || this.stopping || this.running.has(item.id)) return;
    const job = detached(() =>
      this.slots
        .run(async () => {
          if (!this.stopping) await this.convert(item);
        })
        .catch((err) => this.log.warn({ err, item_id: item.id }, 'HEIC preview failed'))
        .finally(() => this.running.delete(item.id)),
    );
    this.running.set(item.id, job);
  }

  /** Resolves when every queued conversion has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running.values()]);
  }

  /**
   * Finishes the conversions under way only: a queue of photos (about 1.5 s each) would outlast the pod's
   * grace period and the process would be killed before its last outbox flush. Those not started stay
   * pending, and the next opening of their file schedules them again.
   */
  async onModuleDestroy() {
    this.stopping = true;
    await this.idle();
  }

  private async convert(item: HeicItem): Promise<void> {
    const previewKey = StorageKeys.preview(item.firmId, item.companyId, item.id);
    // Only an image that cannot be decoded fails for good; storage or the database away for a moment
    // leaves the preview pending, and the next opening of the file schedules it again.
    const heic = await this.store.read(item.storageKey as string, item.size);
    let jpeg: Buffer;
    try {
      jpeg = await heicToJpeg(heic);
    } catch (err) {
      await this.record(item, { previewStatus: 'failed' });
      throw err;
    }
    await this.store.put(previewKey, jpeg, 'image/jpeg');
    // A file moved to another company meanwhile has no row here any more (the move's delete took its
    // preview key only if the row had it): nothing would point at this preview, under the old company.
    if (!(await this.record(item, { previewKey, previewStatus: 'ready' })))
      await this.store.delete(previewKey);
  }

  /**
   * The preview's state on the item, announced as an update (no actor: the product made it). Answers
   * whether the item was still there to take it.
   */
  private record(item: HeicItem, changes: ItemChanges): Promise<boolean> {
    const scope = firmScope(item.firmId);
    return this.repo.transaction(scope, async (tx) => {
      const updated = await this.repo.update(tx, scope, item.id, changes);
      if (updated) await recordItemEvent(tx, 'updated', undefined, updated);
      return Boolean(updated);
    });
  }
}
