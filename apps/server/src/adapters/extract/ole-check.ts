import { UnreadableFileError } from './extracted';

// Special sector ids of the compound file format ([MS-CFB] 2.1).
const endOfChain = 0xfffffffe;
const freeSector = 0xffffffff;
const noStream = 0xffffffff;
const signature = Buffer.from('d0cf11e0a1b11ae1', 'hex');

const fail = (why: string): never => {
  throw new UnreadableFileError(`compound file: ${why}`);
};

/**
 * Checks the structure of an OLE compound file (.doc) before word-extractor reads it, in one linear pass:
 * sector sizes, the allocation tables, and every chain and directory link it will follow. word-extractor follows
 * chains and the directory tree without checking for cycles, so a 1.5 KB file whose chain loops would spin it
 * forever, and a huge sector shift makes it allocate a gigabyte per sector: such files are refused here.
 * Every sector may belong to one chain only, which rules out cycles and chains that merge.
 */
export function checkCompoundFile(bytes: Uint8Array): void {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length < 512 || !data.subarray(0, 8).equals(signature)) fail('no compound file header');
  const sectorShift = data.readUInt16LE(30);
  const miniShift = data.readUInt16LE(32);
  if (sectorShift !== 9 && sectorShift !== 12) fail(`sector shift ${sectorShift}`);
  if (miniShift !== 6) fail(`mini sector shift ${miniShift}`);
  const sectorSize = 1 << sectorShift;
  const sectorCount = Math.floor((data.length - 512) / sectorSize) + ((data.length - 512) % sectorSize ? 1 : 0);
  const fatSectorCount = data.readUInt32LE(44);
  const directoryStart = data.readUInt32LE(48);
  const miniCutoff = data.readUInt32LE(56);
  const miniFatStart = data.readUInt32LE(60);
  const miniFatCount = data.readUInt32LE(64);
  const difatStart = data.readUInt32LE(68);
  const difatCount = data.readUInt32LE(72);
  if (fatSectorCount > sectorCount || difatCount > sectorCount || miniFatCount > sectorCount) fail('table sizes');
  if (miniCutoff !== 4096) fail(`mini stream cutoff ${miniCutoff}`);

  const sectorOffset = (id: number) => 512 + id * sectorSize;
  const isSector = (id: number) => id < sectorCount;
  const owned = new Uint8Array(sectorCount);
  const claim = (id: number) => {
    if (!isSector(id)) fail(`sector ${id} outside the file`);
    if (owned[id]) fail(`sector ${id} used twice (a loop or a merged chain)`);
    owned[id] = 1;
  };

  // The FAT's own sectors: 109 in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109 && fatSectors.length < fatSectorCount; i++) fatSectors.push(data.readUInt32LE(76 + i * 4));
  let difat = difatStart;
  for (let n = 0; n < difatCount && fatSectors.length < fatSectorCount; n++) {
    claim(difat);
    const base = sectorOffset(difat);
    for (let i = 0; i < sectorSize / 4 - 1 && fatSectors.length < fatSectorCount; i++) {
      fatSectors.push(data.readUInt32LE(base + i * 4));
    }
    difat = data.readUInt32LE(base + sectorSize - 4);
  }
  if (fatSectors.length < fatSectorCount) fail('DIFAT shorter than declared');
  const fat = new Uint32Array(fatSectors.length * (sectorSize / 4));
  fatSectors.forEach((id, index) => {
    claim(id);
    const base = sectorOffset(id);
    const end = Math.min(base + sectorSize, data.length);
    for (let at = base, i = index * (sectorSize / 4); at + 4 <= end; at += 4, i++) fat[i] = data.readUInt32LE(at);
  });

  /** Walks a chain in `table`, claiming each sector once; returns its length. */
  const walk = (table: Uint32Array, start: number, claimOne: (id: number) => void): number => {
    let length = 0;
    for (let id = start; id !== endOfChain; length++) {
      if (id === freeSector && length === 0) return 0;
      if (id >= table.length) fail(`chain reaches sector ${id} beyond the table`);
      claimOne(id);
      id = table[id] as number;
    }
    return length;
  };

  const directoryLength = walk(fat, directoryStart, claim);
  if (directoryLength === 0) fail('no directory');
  const miniFatLength = walk(fat, miniFatStart, claim);
  if (miniFatLength !== miniFatCount) fail('mini FAT length differs from its header');

  // Directory entries, 128 bytes each, read through the directory chain.
  const entries: { type: number; left: number; right: number; child: number; start: number; size: number }[] = [];
  for (let id = directoryStart, n = 0; n < directoryLength; n++, id = fat[id] as number) {
    const base = sectorOffset(id);
    for (let at = base; at + 128 <= Math.min(base + sectorSize, data.length); at += 128) {
      entries.push({
        type: data[at + 66] ?? 0,
        left: data.readUInt32LE(at + 68),
        right: data.readUInt32LE(at + 72),
        child: data.readUInt32LE(at + 76),
        start: data.readUInt32LE(at + 116),
        size: data.readUInt32LE(at + 120),
      });
    }
  }
  const root = entries[0];
  if (root?.type !== 5) fail('no root entry');

  // The directory tree: every link in range, each entry reached once.
  const seen = new Uint8Array(entries.length);
  seen[0] = 1; // the root is nobody's child
  const pending = [root?.child ?? noStream];
  for (const storage of entries) if (storage.type === 1 && storage.child !== noStream) pending.push(storage.child);
  while (pending.length) {
    const id = pending.pop() as number;
    if (id === noStream) continue;
    if (id >= entries.length) fail(`directory link ${id} out of range`);
    if (seen[id]) fail(`directory entry ${id} linked twice`);
    seen[id] = 1;
    const entry = entries[id];
    if (entry) pending.push(entry.left, entry.right);
  }

  // The mini stream (root's chain) and every stream's chain, in the FAT or in the mini FAT by size.
  const miniStreamLength = walk(fat, root?.start ?? endOfChain, claim);
  const miniFat = new Uint32Array(miniFatLength * (sectorSize / 4));
  for (let id = miniFatStart, n = 0, i = 0; n < miniFatLength; n++, id = fat[id] as number) {
    const base = sectorOffset(id);
    for (let at = base; at + 4 <= Math.min(base + sectorSize, data.length); at += 4, i++) {
      miniFat[i] = data.readUInt32LE(at);
    }
  }
  const miniSectorCount = (miniStreamLength * sectorSize) >> miniShift;
  const ownedMini = new Uint8Array(miniFat.length);
  const claimMini = (id: number) => {
    if (id >= miniSectorCount) fail(`mini sector ${id} outside the mini stream`);
    if (ownedMini[id]) fail(`mini sector ${id} used twice`);
    ownedMini[id] = 1;
  };
  entries.forEach((entry, index) => {
    if (entry.type !== 2 || !seen[index] || entry.size === 0) return;
    const mini = entry.size < miniCutoff;
    const length = mini ? walk(miniFat, entry.start, claimMini) : walk(fat, entry.start, claim);
    if (length * (mini ? 1 << miniShift : sectorSize) < entry.size) fail('a stream is longer than its chain');
  });
}
