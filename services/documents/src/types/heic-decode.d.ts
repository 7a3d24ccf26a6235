declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  /** An image of the file, its size known before its pixels are decoded. */
  interface ImageHandle {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  function decode(input: { buffer: Uint8Array | ArrayBuffer }): Promise<DecodedImage>;
  namespace decode {
    /** Every image of the file, undecoded; `dispose()` frees them. */
    function all(input: { buffer: Uint8Array | ArrayBuffer }): Promise<ImageHandle[] & { dispose(): void }>;
  }
  export default decode;
}
