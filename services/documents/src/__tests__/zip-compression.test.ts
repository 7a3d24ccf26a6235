import { describe, expect, it } from '@jest/globals';
import { zipCompression } from '../downloads/zip-compression.rules.js';

describe('how a file goes into a download zip', () => {
  it('stores formats compressed already, whatever the case of their extension', () => {
    for (const name of ['W-2.pdf', 'scan.JPG', 'photo.heic', 'Budget.xlsx', 'letter.docx', 'old.zip'])
      expect([name, zipCompression(name)]).toEqual([name, { compress: false }]);
  });

  it('deflates the others, and files without an extension', () => {
    for (const name of ['notes.txt', 'export.csv', 'Budget.xls', 'README'])
      expect([name, zipCompression(name)]).toEqual([name, { compress: true }]);
  });
});
