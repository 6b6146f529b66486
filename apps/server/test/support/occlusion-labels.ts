import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The labelled diagrams of test/fixtures/occlusion (`<name>.png`) and `labels.json`, where their labels were drawn. */
export const occlusionFixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/occlusion');

export type Box = { x: number; y: number; w: number; h: number };

/** Each diagram's size and the boxes of its labels, by diagram name. */
export const knownLabels = JSON.parse(readFileSync(path.join(occlusionFixtures, 'labels.json'), 'utf8')) as Record<
  string,
  { width: number; height: number; labels: (Box & { text: string })[] }
>;

/** Intersection over union of two boxes. */
export function iou(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const inter = w * h;
  return inter / (a.w * a.h + b.w * b.h - inter);
}
