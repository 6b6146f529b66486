import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compoundFile, hugeSectorDoc, loopingOleDoc } from '../../../test/support/hostile-files';
import { UnreadableFileError } from './extracted';
import { checkCompoundFile } from './ole-check';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');

const refused = (bytes: Buffer, why: RegExp) => {
  expect(() => checkCompoundFile(bytes)).toThrow(UnreadableFileError);
  expect(() => checkCompoundFile(bytes)).toThrow(why);
};

describe('compound file check (before word-extractor reads a .doc)', () => {
  it('passes a real Word 97-2003 document and a minimal valid compound file', () => {
    expect(() => checkCompoundFile(readFileSync(path.join(fixtures, 'sample.doc')))).not.toThrow();
    expect(() => checkCompoundFile(compoundFile(() => {}))).not.toThrow();
  });

  it('refuses a sector chain that loops', () => refused(loopingOleDoc(), /used twice/));

  it('refuses a sector chain that points at itself', () =>
    refused(
      compoundFile((_h, fat) => fat.writeUInt32LE(1, 4)),
      /used twice/,
    ));

  it('refuses a chain that leaves the file', () =>
    refused(
      compoundFile((_h, fat) => fat.writeUInt32LE(4000, 4)),
      /beyond the table|outside the file/,
    ));

  it('refuses a sector size other than 512 or 4096 bytes', () => refused(hugeSectorDoc(), /sector shift 30/));

  it('refuses a FAT count larger than the file', () =>
    refused(
      compoundFile((header) => header.writeUInt32LE(1_000_000, 44)),
      /table sizes/,
    ));

  it('refuses a directory tree whose entry links to itself', () =>
    refused(
      compoundFile((_h, _fat, directory) => directory.writeUInt32LE(0, 76)),
      /linked twice/,
    ));

  it('refuses a stream declared longer than its chain', () =>
    refused(
      compoundFile((_h, _fat, directory) => {
        // A second entry: a 100 KB stream starting in the directory's own sector.
        directory.writeUInt32LE(1, 76);
        directory[128 + 66] = 2;
        directory.writeUInt32LE(0xffffffff, 128 + 68);
        directory.writeUInt32LE(0xffffffff, 128 + 72);
        directory.writeUInt32LE(0xffffffff, 128 + 76);
        directory.writeUInt32LE(0xfffffffe, 128 + 116);
        directory.writeUInt32LE(100_000, 128 + 120);
      }),
      /longer than its chain/,
    ));

  it('refuses a file too short for a header', () => refused(Buffer.from('d0cf11e0a1b11ae1', 'hex'), /no compound/));
});
