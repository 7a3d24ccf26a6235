/**
 * The most pixels an image may have to be decoded for a preview or a conversion: a 50 MP photo is
 * larger than any phone takes, while a file of a few kilobytes can declare 144 MP (decoded, 576 MB of
 * pixels, in JavaScript or WebAssembly on the event loop).
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** An image that cannot be decoded or converted: unreadable, or larger than MAX_IMAGE_PIXELS. */
export class ImageNotConvertible extends Error {
  override name = 'ImageNotConvertible';
}
