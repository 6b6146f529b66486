import { vi } from 'vitest';

/**
 * jsdom lays nothing out: give every element a size (480 × 150), so that a virtual list (the Cards tab's) shows its
 * rows. Call it in a `beforeEach`; `vi.restoreAllMocks()` undoes it.
 */
export function giveEveryElementASize(): void {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 480, 150));
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(150);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(480);
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(150);
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(480);
}
