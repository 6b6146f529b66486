import { afterEach, describe, expect, it } from 'vitest';
import { afterSignInPath, pendingImport, pendingJoin } from './pending-import';

afterEach(() => {
  pendingImport.clear();
  pendingJoin.clear();
});

describe('where sign-in leads', () => {
  it('goes to /create with nothing pending', () => {
    expect(afterSignInPath()).toBe('/create');
  });

  it('goes back to the shared deck that waits', () => {
    pendingImport.set('abc 1');
    expect(afterSignInPath()).toBe('/share/abc%201');
  });

  it('goes back to the class join link that waits, before a shared deck', () => {
    pendingImport.set('abc1');
    pendingJoin.set('KQ7MXP');
    expect(afterSignInPath()).toBe('/join/KQ7MXP');
  });
});
