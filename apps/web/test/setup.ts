import '@testing-library/jest-dom/vitest';
// The offline store (src/lib/offline-store.ts) runs on IndexedDB, which jsdom lacks.
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor give up after 3 s rather than Testing Library's 1 s: a first render that loads the markdown and
// math code can take longer than 1 s on a loaded CI machine (the server's tests run beside these).
configure({ asyncUtilTimeout: 3000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// AbortSignal.timeout runs on the runtime's own timer, which vi.useFakeTimers does not replace: here it runs on the
// global setTimeout, so that a test's fake clock drives request deadlines as it drives every other timer.
AbortSignal.timeout = (ms: number) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
  (timer as { unref?: () => void }).unref?.();
  return controller.signal;
};
