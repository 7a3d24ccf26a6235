import type { PDFDocument, PDFPage } from 'pdf-lib';

/** A page as a reader shows it, in PDF points: width and height. */
export type PageSize = [width: number, height: number];

/** A page turned a quarter shows its height as its width. */
export function pageSizeOf(page: PDFPage): PageSize {
  const { width, height } = page.getSize();
  const turned = Math.abs(page.getRotation().angle) % 180 === 90;
  const round = (n: number) => Math.round(n * 100) / 100;
  return turned ? [round(height), round(width)] : [round(width), round(height)];
}

export const pageSizesOf = (pdf: PDFDocument): PageSize[] => pdf.getPages().map(pageSizeOf);
