import { describe, expect, it } from 'vitest';
import type { ParseInput, ParseResult } from './import-parser';
import { ImportBusyError, limitImports } from './import-runner';

const input = { filePath: '/nowhere', kind: 'txt' } as ParseInput;
const result: ParseResult = { cards: [], media: [], skipped: 0, sounds: 0, missingImages: 0, tooLong: 0 };

describe('limitImports', () => {
  it('reads at most `running` imports at once, queues `waiting` more and refuses the rest', async () => {
    let active = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const parse = limitImports(
      async () => {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise<void>((resolve) => releases.push(resolve));
        active -= 1;
        return result;
      },
      { running: 2, waiting: 1 },
    );
    const runs = [parse(input), parse(input), parse(input)];
    await expect(parse(input)).rejects.toBeInstanceOf(ImportBusyError);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(releases).toHaveLength(2);
    releases.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(releases).toHaveLength(2);
    for (const release of releases.splice(0)) release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const release of releases.splice(0)) release();
    await expect(Promise.all(runs)).resolves.toEqual([result, result, result]);
    expect(peak).toBe(2);
  });
});
