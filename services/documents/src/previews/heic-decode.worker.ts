// A worker thread of HeicDecoders (heic-decoders.ts). libheif decodes a photo in seconds of synchronous
// WebAssembly, which on the service's event loop held up every other request of the replica meanwhile.
// Under tests Node loads this file as it is (types stripped), so it imports packages only.
import { parentPort } from 'node:worker_threads';
import decodeHeic from 'heic-decode';

export type DecodeRequest = { heic: Uint8Array; maxPixels: number };
export type DecodeReply =
  | { ok: true; width: number; height: number; data: Uint8ClampedArray }
  | { ok: false; message: string };

/** The file's primary image, decoded only once its declared size is known to be at most maxPixels. */
async function decodePrimary({ heic, maxPixels }: DecodeRequest): Promise<DecodeReply> {
  const images = await decodeHeic.all({ buffer: heic });
  try {
    const primary = images[0];
    if (!primary) return { ok: false, message: 'no image in the file' };
    if (primary.width * primary.height > maxPixels)
      return {
        ok: false,
        message: `${primary.width} x ${primary.height} pixels is more than can be decoded`,
      };
    const { width, height, data } = await primary.decode();
    return { ok: true, width, height, data };
  } finally {
    images.dispose();
  }
}

parentPort?.on('message', (request: DecodeRequest) => {
  decodePrimary(request)
    .catch((err): DecodeReply => ({ ok: false, message: String(err?.message ?? err) }))
    // The pixels (48 MB for 12 MP) are handed over, not copied.
    .then((reply) => parentPort?.postMessage(reply, reply.ok ? [reply.data.buffer as ArrayBuffer] : []));
});
