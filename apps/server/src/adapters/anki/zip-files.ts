import { buffer } from 'node:stream/consumers';
import yazl from 'yazl';

/** A zip archive in memory: each entry's name and bytes, deflated unless its options say `compress: false`. */
export function zipFiles(files: [name: string, data: Buffer, options?: { compress: boolean }][]): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, data, options] of files) archive.addBuffer(data, name, options);
  archive.end();
  return buffer(archive.outputStream);
}
