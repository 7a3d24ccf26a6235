import { describe, expect, it } from '@jest/globals';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { imageToPdf } from '../downloads/image-pdf.js';
import { heicToJpeg, heicToPng } from '../previews/heic.converter.js';
import { quadrantColours, REAL_HEIC, REAL_HEIC_QUADRANTS, realHeic } from './samples.js';

describe('HEIC conversion of a real photo', () => {
  it('sharp alone cannot decode it, which is why heic-decode is used', async () => {
    const meta = await sharp(realHeic()).metadata();
    expect(meta).toMatchObject({ format: 'heif', compression: 'hevc' });
    await expect(sharp(realHeic()).raw().toBuffer()).rejects.toThrow();
  });

  it('makes a displayable JPEG preview of the same size and colours', async () => {
    const preview = await heicToJpeg(realHeic());
    expect(preview.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await sharp(preview).metadata()).toMatchObject({ format: 'jpeg', ...REAL_HEIC });
    expect(await quadrantColours(preview)).toEqual(REAL_HEIC_QUADRANTS);
  });

  it('makes a PNG for image-to-PDF conversion', async () => {
    const bytes = await heicToPng(realHeic());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', ...REAL_HEIC });
    expect(await quadrantColours(bytes)).toEqual(REAL_HEIC_QUADRANTS);
    const pdf = await PDFDocument.load(await imageToPdf('IMG_0001.HEIC', realHeic()));
    expect(pdf.getPage(0).getSize()).toEqual(REAL_HEIC);
  });

  it('refuses bytes that only look like HEIC', async () => {
    await expect(heicToJpeg(realHeic().subarray(0, 200))).rejects.toThrow();
  });
});
