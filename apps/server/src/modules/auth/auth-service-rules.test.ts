import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../test/support/api-error';
import type { GoogleIdentity, GoogleIdTokenVerifier } from '../../adapters/google/id-token-verifier';
import { GoogleTokenError } from '../../adapters/google/id-token-verifier';
import { memoryRateLimiters, type RateLimitRule } from '../../adapters/rate-limit/rate-limiter';
import type { SessionUser } from '../../http/session-user';
import {
  type AuthService,
  type AuthServiceDeps,
  createAuthService,
  RECENT_GOOGLE_SIGN_IN_MS,
  toUser,
} from './auth.service';
import { hashPassword } from './passwords';
import type { UserRow, UsersRepo } from './users.repo';

// The rules of auth.service.ts on their own, with an in-memory users table and the real in-memory limiters: what
// each limit is keyed by and counts, what a success gives back, and the exact error of each refusal.

const HOUR = 3_600_000;

const session = (id: string, email: string, token_version = 0): SessionUser => ({
  id,
  email,
  token_version,
  time_zone: 'UTC',
  fsrs_parameters: null,
  fsrs_optimized_at: null,
  fsrs_reviews_used: 0,
  class_memberships: 0,
});
const start = Date.UTC(2026, 0, 10, 12);

function fakeUsers(rows: UserRow[]) {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const find = (test: (row: UserRow) => boolean) => [...byId.values()].find(test);
  const repo = {
    async insert(row: Partial<UserRow> & Pick<UserRow, 'id' | 'email'>) {
      if (find((other) => other.email === row.email || (row.google_sub != null && other.google_sub === row.google_sub)))
        throw Object.assign(new Error('UNIQUE constraint failed: users.email'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
      byId.set(row.id, { token_version: 0, google_signed_in_at: null, time_zone: 'UTC', ...row } as UserRow);
    },
    findById: async (id: string) => byId.get(id),
    findByEmail: async (email: string) => find((row) => row.email === email),
    findByGoogleSub: async (sub: string) => find((row) => row.google_sub === sub),
    async findSessionUser(id: string) {
      const row = byId.get(id);
      return row ? { id: row.id, email: row.email, token_version: row.token_version } : undefined;
    },
    async linkGoogle(id: string, sub: string, now: number) {
      const row = byId.get(id);
      if (!row || row.google_sub !== null) return false;
      byId.set(id, {
        ...row,
        google_sub: sub,
        password_hash: null,
        token_version: row.token_version + 1,
        updated_at: now,
      });
      return true;
    },
    async touchGoogleSignIn(id: string, now: number) {
      const row = byId.get(id);
      if (row) row.google_signed_in_at = now;
    },
    async setPassword(id: string, passwordHash: string, now: number) {
      const row = byId.get(id) as UserRow;
      Object.assign(row, { password_hash: passwordHash, token_version: row.token_version + 1, updated_at: now });
      return row.token_version;
    },
    async bumpTokenVersion(id: string, now: number) {
      const row = byId.get(id) as UserRow;
      Object.assign(row, { token_version: row.token_version + 1, updated_at: now });
      return row.token_version;
    },
    async deleteAccount(id: string) {
      byId.delete(id);
    },
  };
  return { repo: repo as unknown as UsersRepo, byId };
}

interface Setup {
  rows?: UserRow[];
  google?: GoogleIdTokenVerifier | null;
  limits?: Partial<AuthServiceDeps['rateLimits']>;
}

function setup(options: Setup = {}) {
  const now = start;
  let nextId = 0;
  const users = fakeUsers(options.rows ?? []);
  const rules: RateLimitRule[] = [];
  const memory = memoryRateLimiters();
  const service = createAuthService({
    users: users.repo,
    tokens: {
      issue: async (userId, version) => `token:${userId}:${version}`,
      verify: async (token) => {
        const [kind, userId, version] = token.split(':');
        return kind === 'token' && userId ? { userId, version: Number(version) } : null;
      },
    },
    clock: { now: () => now },
    newId: () => `id-${++nextId}`,
    google: options.google ?? null,
    rateLimiters: (rule) => {
      rules.push(rule);
      return memory(rule);
    },
    rateLimits: { perIp: 100, perEmail: 3, perAccount: 5, windowMs: HOUR, ...options.limits },
  });
  return { service, users, rules };
}

const logIn = (service: AuthService, username: string, password: string, ip: string) =>
  service.login({ username, password }, ip);

async function passwordRow(id: string, email: string, password = 'right password'): Promise<UserRow> {
  return {
    id,
    email,
    name: 'Ada',
    password_hash: await hashPassword(password),
    google_sub: null,
    google_signed_in_at: null,
    token_version: 0,
    created_at: start - HOUR,
    updated_at: start - HOUR,
  } as UserRow;
}

function googleRow(id: string, email: string, signedInAt: number | null): UserRow {
  return {
    id,
    email,
    name: 'Grace',
    password_hash: null,
    google_sub: `sub-${id}`,
    google_signed_in_at: signedInAt,
    token_version: 0,
    created_at: start - HOUR,
    updated_at: start - HOUR,
  } as UserRow;
}

/** `windowSeconds`: the wait is the rest of that window (the limiter's clock is real, so a little of it has passed). */
async function expectRefused(promise: Promise<unknown>, code: string, detail: string, windowSeconds?: number) {
  const error = await refusalOf(promise);
  expect({ code: error.code, detail: error.detail }).toEqual({ code, detail });
  if (windowSeconds !== undefined) {
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(windowSeconds);
    expect(error.retryAfterSeconds).toBeGreaterThan(windowSeconds - 600);
  }
}

const verifierFor = (identity: GoogleIdentity): GoogleIdTokenVerifier => ({
  verify: async (credential) => {
    if (credential !== 'good credential') throw new GoogleTokenError('bad signature');
    return identity;
  },
});

describe('auth service limits', () => {
  it('creates its four limiters with their names, points and window', () => {
    const { rules } = setup({ limits: { perIp: 40, perEmail: 4, perAccount: 9, windowMs: 2 * HOUR } });
    expect(rules).toEqual([
      { name: 'auth-ip', points: 40, windowMs: 2 * HOUR },
      { name: 'login-email-ip', points: 4, windowMs: 2 * HOUR },
      { name: 'login-email', points: 9, windowMs: 2 * HOUR },
      { name: 'signup-email', points: 4, windowMs: 2 * HOUR },
    ]);
  });

  it('keys the per-email login limit by email and address: a third failure passes, the fourth waits the window', async () => {
    const { service } = setup({ rows: [await passwordRow('u1', 'ada@example.com')] });
    for (let attempt = 1; attempt <= 3; attempt++) {
      await expectRefused(
        logIn(service, 'ada@example.com', 'wrong', '192.0.2.1'),
        'invalid_credentials',
        serverMessages.invalidCredentials,
      );
    }
    await expectRefused(
      logIn(service, 'ada@example.com', 'right password', '192.0.2.1'),
      'rate_limited',
      serverMessages.rateLimited,
      3600,
    );
    // Another address still gets its own three tries, and the right password opens the account there.
    await expect(logIn(service, 'ada@example.com', 'right password', '192.0.2.2')).resolves.toEqual({
      access_token: 'token:u1:0',
      token_type: 'bearer',
    });
  });

  it('a success clears the address count and gives its hit back to the account count', async () => {
    const { service } = setup({ rows: [await passwordRow('u1', 'ada@example.com')] });
    const fail = (ip: string) => logIn(service, 'ada@example.com', 'wrong', ip);
    const succeed = (ip: string) => logIn(service, 'ada@example.com', 'right password', ip);
    await refusalOf(fail('192.0.2.1'));
    await refusalOf(fail('192.0.2.1'));
    await succeed('192.0.2.1');
    // The address count starts again: three more failures pass before the limit.
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await refusalOf(fail('192.0.2.1'))).code).toBe('invalid_credentials');
    }
    expect((await refusalOf(fail('192.0.2.1'))).code).toBe('rate_limited');
    // The account has counted 5 failures + 1 refused: the success's own hit was refunded, so a fresh address is
    // now refused by the per-account limit of 5.
    await expectRefused(succeed('192.0.2.9'), 'rate_limited', serverMessages.rateLimited, 3600);
  });

  it('bounds one email over every address by the per-account limit, keyed by the email alone', async () => {
    const { service } = setup({
      rows: [await passwordRow('u1', 'ada@example.com'), await passwordRow('u2', 'bob@example.com')],
    });
    for (let attempt = 1; attempt <= 5; attempt++) {
      const error = await refusalOf(logIn(service, 'ada@example.com', 'x', `198.51.100.${attempt}`));
      expect(error.code).toBe('invalid_credentials');
    }
    await expectRefused(
      logIn(service, 'ada@example.com', 'right password', '198.51.100.77'),
      'rate_limited',
      serverMessages.rateLimited,
    );
    // Another email from those same addresses is not held.
    await expect(logIn(service, 'bob@example.com', 'right password', '198.51.100.1')).resolves.toEqual({
      access_token: 'token:u2:0',
      token_type: 'bearer',
    });
  });

  it('limits every attempt per client address, sign-ups and logins together', async () => {
    const { service } = setup({ limits: { perIp: 2 } });
    await service.signup({ email: 'a@example.com', password: 'password one', name: 'A' }, '203.0.113.5');
    await refusalOf(logIn(service, 'a@example.com', 'wrong', '203.0.113.5'));
    await expectRefused(
      service.signup({ email: 'b@example.com', password: 'password two', name: 'B' }, '203.0.113.5'),
      'rate_limited',
      serverMessages.rateLimited,
      3600,
    );
    await expect(
      service.signup({ email: 'b@example.com', password: 'password two', name: 'B' }, '203.0.113.6'),
    ).resolves.toMatchObject({ email: 'b@example.com' });
  });

  it('limits sign-ups per email across addresses', async () => {
    const { service } = setup();
    await service.signup({ email: 'a@example.com', password: 'password one', name: 'A' }, '203.0.113.1');
    for (const ip of ['203.0.113.2', '203.0.113.3']) {
      await expectRefused(
        service.signup({ email: 'a@example.com', password: 'password one', name: 'A' }, ip),
        'email_taken',
        serverMessages.emailTaken,
      );
    }
    await expectRefused(
      service.signup({ email: 'a@example.com', password: 'password one', name: 'A' }, '203.0.113.4'),
      'rate_limited',
      serverMessages.rateLimited,
    );
  });
});

describe('auth service accounts', () => {
  it('signs up with the clock, a new id and a hash, and answers the User shape', async () => {
    const { service, users } = setup();
    const user = await service.signup({ email: 'new@example.com', password: 'long password', name: 'New' }, '::1');
    expect(user).toEqual({
      _id: 'id-1',
      email: 'new@example.com',
      name: 'New',
      created_at: new Date(start).toISOString(),
      time_zone: 'UTC',
    });
    const row = users.byId.get('id-1') as UserRow;
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect({ created: row.created_at, updated: row.updated_at, sub: row.google_sub }).toEqual({
      created: start,
      updated: start,
      sub: null,
    });
  });

  it('passes on an error that is not a duplicate email', async () => {
    const { service, users } = setup();
    (users.repo as unknown as { insert: () => Promise<void> }).insert = async () => {
      throw new Error('disk full');
    };
    await expect(
      service.signup({ email: 'new@example.com', password: 'long password', name: 'New' }, '::1'),
    ).rejects.toThrow('disk full');
  });

  it('refuses an unknown email and a Google-only account at the password login with the same error', async () => {
    const { service } = setup({ rows: [googleRow('g1', 'grace@example.com', null)] });
    for (const username of ['nobody@example.com', 'grace@example.com']) {
      await expectRefused(
        logIn(service, username, 'anything', '::1'),
        'invalid_credentials',
        serverMessages.invalidCredentials,
      );
    }
  });

  it('authenticates a token only while its version matches the row', async () => {
    const { service } = setup({ rows: [await passwordRow('u1', 'ada@example.com')] });
    expect(await service.authenticate('token:u1:0')).toEqual({ id: 'u1', email: 'ada@example.com', token_version: 0 });
    expect(await service.authenticate('token:u1:1')).toBeNull();
    expect(await service.authenticate('token:gone:0')).toBeNull();
    expect(await service.authenticate('garbage')).toBeNull();
  });

  it('changes a password: the current one is needed, a wrong one is 403 and counts against the account', async () => {
    const { service, users } = setup({ rows: [await passwordRow('u1', 'ada@example.com')] });
    const me = session('u1', 'ada@example.com');
    await expectRefused(
      service.changePassword(me, { new_password: 'new password 1' }),
      'wrong_password',
      serverMessages.wrongPassword,
    );
    for (let attempt = 1; attempt <= 4; attempt++) {
      await refusalOf(service.changePassword(me, { current_password: 'wrong', new_password: 'new password 1' }));
    }
    // Five wrong current passwords: the account's limit is spent.
    await expectRefused(
      service.changePassword(me, { current_password: 'right password', new_password: 'new password 1' }),
      'rate_limited',
      serverMessages.rateLimited,
    );
    expect(users.byId.get('u1')?.token_version).toBe(0);
  });

  it('a right current password sets the new one, moves the version on and gives its hit back', async () => {
    const { service, users } = setup({ rows: [await passwordRow('u1', 'ada@example.com')] });
    const me = session('u1', 'ada@example.com');
    for (let round = 1; round <= 6; round++) {
      const password = round === 1 ? 'right password' : `new password ${round - 1}`;
      await expect(
        service.changePassword(me, { current_password: password, new_password: `new password ${round}` }),
      ).resolves.toEqual({ access_token: `token:u1:${round}`, token_type: 'bearer' });
    }
    expect(users.byId.get('u1')?.token_version).toBe(6);
    expect(users.byId.get('u1')?.updated_at).toBe(start);
  });

  it('lets a Google-only account set its first password without a current one', async () => {
    const { service, users } = setup({ rows: [googleRow('g1', 'grace@example.com', null)] });
    await expect(
      service.changePassword(session('g1', 'grace@example.com'), { new_password: 'first one' }),
    ).resolves.toEqual({ access_token: 'token:g1:1', token_type: 'bearer' });
    expect(users.byId.get('g1')?.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('answers 401 not_authenticated for a session whose account is gone', async () => {
    const { service } = setup();
    await expectRefused(
      service.account(session('gone', 'gone@example.com')),
      'not_authenticated',
      serverMessages.notAuthenticated,
    );
  });

  it('signs out everywhere by moving the version on', async () => {
    const { service, users } = setup({ rows: [await passwordRow('u1', 'ada@example.com')] });
    await service.signOutEverywhere(session('u1', 'ada@example.com'));
    expect(users.byId.get('u1')?.token_version).toBe(1);
  });

  it('deletes a password account only with its password, each try counted against the account', async () => {
    const { service, users } = setup({ rows: [await passwordRow('u1', 'ada@example.com')] });
    const me = session('u1', 'ada@example.com');
    await expectRefused(service.deleteAccount(me, {}), 'wrong_password', serverMessages.wrongPassword);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await expectRefused(
        service.deleteAccount(me, { password: 'wrong' }),
        'wrong_password',
        serverMessages.wrongPassword,
      );
    }
    await expectRefused(
      service.deleteAccount(me, { password: 'right password' }),
      'rate_limited',
      serverMessages.rateLimited,
    );
    expect(users.byId.has('u1')).toBe(true);
  });

  it('deletes a password account with its password', async () => {
    const { service, users } = setup({ rows: [await passwordRow('u1', 'ada@example.com')] });
    await service.deleteAccount(session('u1', 'ada@example.com'), { password: 'right password' });
    expect(users.byId.has('u1')).toBe(false);
  });

  it('deletes a Google-only account within ten minutes of a Google sign-in, not after, not without one', async () => {
    expect(RECENT_GOOGLE_SIGN_IN_MS).toBe(600_000);
    const exactly = setup({ rows: [googleRow('g1', 'g@example.com', start - RECENT_GOOGLE_SIGN_IN_MS)] });
    await exactly.service.deleteAccount(session('g1', 'g@example.com'), {});
    expect(exactly.users.byId.has('g1')).toBe(false);

    const late = setup({ rows: [googleRow('g1', 'g@example.com', start - RECENT_GOOGLE_SIGN_IN_MS - 1)] });
    await expectRefused(
      late.service.deleteAccount(session('g1', 'g@example.com'), {}),
      'recent_sign_in_required',
      serverMessages.recentGoogleSignInRequired,
    );
    const never = setup({ rows: [googleRow('g1', 'g@example.com', null)] });
    await expectRefused(
      never.service.deleteAccount(session('g1', 'g@example.com'), {}),
      'recent_sign_in_required',
      serverMessages.recentGoogleSignInRequired,
    );
    expect(late.users.byId.has('g1') && never.users.byId.has('g1')).toBe(true);
  });

  it('toUser falls back to UTC when the row has no time zone', () => {
    expect(toUser({ id: 'u', email: 'e@example.com', name: 'E', created_at: start })).toEqual({
      _id: 'u',
      email: 'e@example.com',
      name: 'E',
      created_at: '2026-01-10T12:00:00.000Z',
      time_zone: 'UTC',
    });
    expect(toUser({ id: 'u', email: 'e', name: 'E', created_at: start, time_zone: 'Europe/Paris' }).time_zone).toBe(
      'Europe/Paris',
    );
  });
});

describe('auth service Google sign-in', () => {
  const identity = (over: Partial<GoogleIdentity> = {}): GoogleIdentity =>
    ({
      sub: 'sub-new',
      email: ' New@Example.com ',
      emailVerified: true,
      name: `  ${'N'.repeat(120)}  `,
      ...over,
    }) as GoogleIdentity;

  it('answers 501 google_login_unavailable without a client id', async () => {
    const { service } = setup();
    await expectRefused(
      service.googleLogin('good credential', '::1'),
      'google_login_unavailable',
      serverMessages.googleLoginUnavailable,
    );
  });

  it('refuses a credential the verifier rejects with 401 invalid_google_token', async () => {
    const { service } = setup({ google: verifierFor(identity()) });
    await expectRefused(
      service.googleLogin('forged', '::1'),
      'invalid_google_token',
      serverMessages.googleTokenInvalid,
    );
  });

  it('passes on a verifier failure that is not about the token', async () => {
    const { service } = setup({
      google: {
        verify: async () => {
          throw new Error('certs unreachable');
        },
      },
    });
    await expect(service.googleLogin('good credential', '::1')).rejects.toThrow('certs unreachable');
  });

  it('creates the account with the trimmed lower-case email and a name cut to 100 characters, and notes the sign-in', async () => {
    const { service, users } = setup({ google: verifierFor(identity()) });
    await expect(service.googleLogin('good credential', '::1')).resolves.toEqual({
      access_token: 'token:id-1:0',
      token_type: 'bearer',
    });
    const row = users.byId.get('id-1') as UserRow;
    expect({ email: row.email, name: row.name, sub: row.google_sub, hash: row.password_hash }).toEqual({
      email: 'new@example.com',
      name: 'N'.repeat(100),
      sub: 'sub-new',
      hash: null,
    });
    expect(row.google_signed_in_at).toBe(start);
  });

  it('signs in an account already linked to the sub, with no notice', async () => {
    const { service } = setup({
      rows: [googleRow('g1', 'grace@example.com', null)],
      google: verifierFor(identity({ sub: 'sub-g1', emailVerified: false })),
    });
    await expect(service.googleLogin('good credential', '::1')).resolves.toEqual({
      access_token: 'token:g1:0',
      token_type: 'bearer',
    });
  });

  it('refuses to link by an unverified email', async () => {
    const { service } = setup({
      rows: [await passwordRow('u1', 'new@example.com')],
      google: verifierFor(identity({ emailVerified: false })),
    });
    await expectRefused(
      service.googleLogin('good credential', '::1'),
      'google_email_unverified',
      serverMessages.googleEmailUnverified,
    );
  });

  it('links a password account by verified email, removes its password and says so', async () => {
    const { service, users } = setup({
      rows: [await passwordRow('u1', 'new@example.com')],
      google: verifierFor(identity()),
    });
    await expect(service.googleLogin('good credential', '::1')).resolves.toEqual({
      access_token: 'token:u1:1',
      token_type: 'bearer',
      notice: serverMessages.googleLinkedPasswordRemoved,
    });
    expect(users.byId.get('u1')?.password_hash).toBeNull();
  });

  it('refuses an email whose account is linked to another Google account, or that cannot be linked', async () => {
    const other = setup({
      rows: [{ ...googleRow('g1', 'new@example.com', null), google_sub: 'sub-other' }],
      google: verifierFor(identity()),
    });
    await expectRefused(
      other.service.googleLogin('good credential', '::1'),
      'google_account_mismatch',
      serverMessages.googleAccountMismatch,
    );
    const raced = setup({ rows: [await passwordRow('u1', 'new@example.com')], google: verifierFor(identity()) });
    (raced.users.repo as unknown as { linkGoogle: () => Promise<boolean> }).linkGoogle = async () => false;
    await expectRefused(
      raced.service.googleLogin('good credential', '::1'),
      'google_account_mismatch',
      serverMessages.googleAccountMismatch,
    );
  });

  it('two first sign-ins at once: the one that lost the insert signs in to the account the other created', async () => {
    const { service, users } = setup({ google: verifierFor(identity()) });
    const repo = users.repo as unknown as { insert: (row: UserRow) => Promise<void> };
    const insert = repo.insert;
    repo.insert = async (row) => {
      await insert({ ...row, id: 'winner' });
      await insert(row);
    };
    await expect(service.googleLogin('good credential', '::1')).resolves.toEqual({
      access_token: 'token:winner:0',
      token_type: 'bearer',
    });
    repo.insert = async () => {
      throw Object.assign(new Error('duplicate key'), { code: '23505' });
    };
    const lost = setup({ google: verifierFor(identity({ sub: 'sub-lost' })) });
    (lost.users.repo as unknown as { insert: () => Promise<void> }).insert = repo.insert as () => Promise<void>;
    await expectRefused(
      lost.service.googleLogin('good credential', '::1'),
      'google_account_mismatch',
      serverMessages.googleAccountMismatch,
    );
  });

  it('passes on an insert failure that is not a duplicate, and answers 401 when the account vanished meanwhile', async () => {
    const broken = setup({ google: verifierFor(identity()) });
    (broken.users.repo as unknown as { insert: () => Promise<void> }).insert = async () => {
      throw new Error('disk full');
    };
    await expect(broken.service.googleLogin('good credential', '::1')).rejects.toThrow('disk full');
    const vanished = setup({
      rows: [googleRow('g1', 'grace@example.com', null)],
      google: verifierFor(identity({ sub: 'sub-g1' })),
    });
    (vanished.users.repo as unknown as { findById: () => Promise<undefined> }).findById = async () => undefined;
    expect(await refusalOf(vanished.service.googleLogin('good credential', '::1'))).toEqual({
      code: 'invalid_google_token',
      detail: serverMessages.googleTokenInvalid,
    });
  });

  it('counts Google sign-ins against the client address', async () => {
    const { service } = setup({ google: verifierFor(identity()), limits: { perIp: 1 } });
    await service.googleLogin('good credential', '::1');
    await expectRefused(service.googleLogin('good credential', '::1'), 'rate_limited', serverMessages.rateLimited);
  });
});
