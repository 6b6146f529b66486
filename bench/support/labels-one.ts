// Finds the labels of one image in this process (as a label process does) and prints JSON: time, peak RSS, boxes.
import { readFileSync } from 'node:fs';
import { findLabels } from '../../apps/server/src/adapters/occlusion/label-worker';

const file = process.argv[2] as string;
const started = performance.now();
const result = await findLabels({ bytes: readFileSync(file), maxImagePixels: 40_000_000 });
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, result })}\n`);
process.exit(0);
