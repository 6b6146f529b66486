// Mask suggestions (POST /occlusion/suggest's OCR): for each labelled diagram of the fixtures, the time to find its
// labels and the peak RSS of a fresh process doing it (as a label process does), the labels found of those drawn,
// and how well the boxes cover them (mean and lowest IoU). The 2-megapixel circuit is the benchmark size.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Box, iou, knownLabels, occlusionFixtures } from '../apps/server/test/support/occlusion-labels';

const here = path.dirname(fileURLToPath(import.meta.url));

console.log(
  `load average before: ${loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')}`,
);
for (const [name, expected] of Object.entries(knownLabels)) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'support', 'labels-one.ts'), path.join(occlusionFixtures, `${name}.png`)],
    { encoding: 'utf8' },
  );
  const line = run.stdout.trim().split('\n').pop() ?? '';
  const { ms, maxRssMb, result } = JSON.parse(line) as {
    ms: number;
    maxRssMb: number;
    result: { boxes: (Box & { text: string })[] };
  };
  const overlaps = expected.labels.map((label) => {
    const best = Math.max(0, ...result.boxes.map((box) => iou(box, label)));
    return best;
  });
  const found = overlaps.filter((value) => value > 0.5).length;
  const mean = overlaps.reduce((sum, value) => sum + value, 0) / overlaps.length;
  console.log(
    `${name} (${expected.width}×${expected.height}): ${found}/${expected.labels.length} labels found, ` +
      `${result.boxes.length} boxes, IoU mean ${mean.toFixed(2)} lowest ${Math.min(...overlaps).toFixed(2)}, ` +
      `${(ms / 1000).toFixed(1)} s, peak RSS ${maxRssMb.toFixed(0)} MB`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')}`,
);
