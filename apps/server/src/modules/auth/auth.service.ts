import type { TokenResponse, User } from '@flashcards/shared/api-types';
import type { Clock } from '../../adapters/clock';
import { type GoogleIdTokenVerifier, GoogleTokenError } from '../../adapters/google/id-token-verifier';
import type { IdGenerator } from '../../adapters/ids';
import type { RateLimiter, RateLimiterFactory } from '../../adapters/rate-limit/rate-limiter';
import { isUniqueViolation } from '../../db/errors';
import { errors, rateLimited } from '../../http/app-error';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import type { TokenService } from './tokens';
import type { UserRow, UsersRepo } from './users.repo';

export interface AuthServiceDeps {
  users: UsersRepo;
  tokens: TokenService;
  clock: Clock;
  newId: IdGenerator;
  /** Null when GOOGLE_CLIENT_ID is unset: Google sign-in is then refused. */
  google: GoogleIdTokenVerifier | null;
  rateLimiters: RateLimiterFactory;
  rateLimits: { perIp: number; perEmail: number; windowMs: number };
}

export function toUser(row: Pick<UserRow, 'id' | 'email' | 'name' | 'created_at'>): User {
  return { _id: row.id, email: row.email, name: row.name, created_at: new Date(row.created_at).toISOString() };
}

/**
 * Accounts: sign-up, password and Google sign-in, and access tokens. Sign-in and sign-up are rate limited per
 * client address (every attempt) and per email (failed logins, sign-up attempts).
 */
export function createAuthService(deps: AuthServiceDeps) {
  const { users, tokens, clock } = deps;
  const { perIp, perEmail, windowMs } = deps.rateLimits;
  const ipLimiter = deps.rateLimiters({ name: 'auth-ip', points: perIp, windowMs });
  const loginFailures = deps.rateLimiters({ name: 'login-email', points: perEmail, windowMs });
  const signupAttempts = deps.rateLimiters({ name: 'signup-email', points: perEmail, windowMs });

  const tokenFor = async (userId: string): Promise<TokenResponse> => ({
    access_token: await tokens.issue(userId),
    token_type: 'bearer',
  });

  return {
    async signup(input: { email: string; password: string; name: string }, clientIp: string): Promise<User> {
      await limit(ipLimiter, clientIp);
      await limit(signupAttempts, input.email);
      const now = clock.now();
      try {
        const row = {
          id: deps.newId(),
          email: input.email,
          name: input.name,
          password_hash: await hashPassword(input.password),
          google_sub: null,
          created_at: now,
          updated_at: now,
        };
        await users.insert(row);
        return toUser(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw errors.emailTaken();
        throw error;
      }
    },

    async login(input: { username: string; password: string }, clientIp: string): Promise<TokenResponse> {
      await limit(ipLimiter, clientIp);
      const waitMs = await loginFailures.blockedFor(input.username);
      if (waitMs !== null) throw rateLimited(waitMs);

      const user = await users.findByEmail(input.username);
      let valid = false;
      if (user?.password_hash) valid = await verifyPassword(user.password_hash, input.password);
      else await verifyAgainstDummy(input.password);
      if (!user || !valid) {
        await loginFailures.hit(input.username);
        throw errors.invalidCredentials();
      }
      await loginFailures.reset(input.username);
      return tokenFor(user.id);
    },

    async googleLogin(credential: string, clientIp: string): Promise<TokenResponse> {
      if (!deps.google) throw errors.googleLoginUnavailable();
      await limit(ipLimiter, clientIp);
      let identity: Awaited<ReturnType<GoogleIdTokenVerifier['verify']>>;
      try {
        identity = await deps.google.verify(credential);
      } catch (error) {
        if (error instanceof GoogleTokenError) throw errors.invalidGoogleToken();
        throw error;
      }
      return tokenFor(await findOrCreateGoogleUser(identity));
    },

    /** The user a bearer token belongs to, or null (bad token, or the account no longer exists). */
    async authenticate(token: string): Promise<UserRow | null> {
      const userId = await tokens.verify(token);
      return userId ? ((await users.findById(userId)) ?? null) : null;
    },
  };

  async function findOrCreateGoogleUser(identity: {
    sub: string;
    email: string;
    emailVerified: boolean;
    name: string;
  }): Promise<string> {
    const linked = await users.findByGoogleSub(identity.sub);
    if (linked) return linked.id;
    // Linking by email is only safe when Google vouches for the address.
    if (!identity.emailVerified) throw errors.googleEmailUnverified();
    const email = identity.email.trim().toLowerCase();
    const existing = await users.findByEmail(email);
    const now = clock.now();
    if (existing) {
      if (existing.google_sub === null) await users.linkGoogle(existing.id, identity.sub, now);
      return existing.id;
    }
    try {
      const id = deps.newId();
      await users.insert({
        id,
        email,
        name: identity.name.trim().slice(0, 100),
        password_hash: null,
        google_sub: identity.sub,
        created_at: now,
        updated_at: now,
      });
      return id;
    } catch (error) {
      // Two first sign-ins at once: the other one created the account.
      if (!isUniqueViolation(error)) throw error;
      const winner = (await users.findByGoogleSub(identity.sub)) ?? (await users.findByEmail(email));
      if (!winner) throw error;
      return winner.id;
    }
  }
}

export type AuthService = ReturnType<typeof createAuthService>;

async function limit(limiter: RateLimiter, key: string): Promise<void> {
  const waitMs = await limiter.hit(key);
  if (waitMs !== null) throw rateLimited(waitMs);
}
