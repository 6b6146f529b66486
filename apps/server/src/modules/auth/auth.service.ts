import type { TokenResponse, User } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { isoTime } from '@flashcards/shared/time';
import type { Clock } from '../../adapters/clock';
import { type GoogleIdTokenVerifier, GoogleTokenError } from '../../adapters/google/id-token-verifier';
import type { IdGenerator } from '../../adapters/ids';
import type { RateLimiter, RateLimiterFactory } from '../../adapters/rate-limit/rate-limiter';
import { isUniqueViolation } from '../../db/errors';
import { errors, rateLimited } from '../../http/app-error';
import type { SessionUser } from '../../http/session-user';
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
  rateLimits: { perIp: number; perEmail: number; perAccount: number; windowMs: number };
}

/** A Google-only account may be deleted within this long after a Google sign-in. */
export const RECENT_GOOGLE_SIGN_IN_MS = 10 * 60_000;

export function toUser(
  row: Pick<UserRow, 'id' | 'email' | 'name' | 'created_at'> & { time_zone?: string | undefined },
): User {
  return {
    _id: row.id,
    email: row.email,
    name: row.name,
    created_at: isoTime(row.created_at),
    time_zone: row.time_zone ?? 'UTC',
  };
}

/**
 * Accounts: sign-up, password and Google sign-in, access tokens, and the account controls (password change, sign out
 * everywhere, deletion).
 *
 * Limits. Every sign-in and sign-up attempt counts against the client address (perIp). A password check is counted
 * before it runs, atomically, against two keys, so parallel requests cannot slip past a read-then-count gap:
 * - the email together with the client address (perEmail): one address gets perEmail guesses per window;
 * - the email from every address (perAccount, 10 × perEmail by default): the bound on distributed guessing.
 * A successful login clears the first and gives its hit back to the second. The lock-out this allows: an attacker
 * locks the owner out only from the attacker's own address, unless they spend perAccount guesses from several
 * addresses every window (each address also held by perIp), instead of 10 wrong passwords renewing a lock forever.
 */
export function createAuthService(deps: AuthServiceDeps) {
  const { users, tokens, clock } = deps;
  const { perIp, perEmail, perAccount, windowMs } = deps.rateLimits;
  const ipLimiter = deps.rateLimiters({ name: 'auth-ip', points: perIp, windowMs });
  const loginPerAddress = deps.rateLimiters({ name: 'login-email-ip', points: perEmail, windowMs });
  const loginPerAccount = deps.rateLimiters({ name: 'login-email', points: perAccount, windowMs });
  const signupAttempts = deps.rateLimiters({ name: 'signup-email', points: perEmail, windowMs });

  /** The signed-in user's whole account row (authentication reads only its session columns). */
  const account = async (session: SessionUser): Promise<UserRow> => {
    const user = await users.findById(session.id);
    if (!user) throw errors.notAuthenticated();
    return user;
  };
  const tokenFor = async (user: Pick<UserRow, 'id' | 'token_version'>): Promise<TokenResponse> => ({
    access_token: await tokens.issue(user.id, user.token_version),
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
      const addressKey = `${input.username}|${clientIp}`;
      await limit(loginPerAddress, addressKey);
      await limit(loginPerAccount, input.username);

      const user = await users.findByEmail(input.username);
      let valid = false;
      if (user?.password_hash) valid = await verifyPassword(user.password_hash, input.password);
      else await verifyAgainstDummy(input.password);
      if (!user || !valid) throw errors.invalidCredentials();
      await loginPerAddress.reset(addressKey);
      await loginPerAccount.refund(input.username);
      return tokenFor(user);
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
      const { userId, passwordRemoved } = await findOrCreateGoogleUser(identity);
      await users.touchGoogleSignIn(userId, clock.now());
      const user = await users.findById(userId);
      if (!user) throw errors.invalidGoogleToken();
      return {
        ...(await tokenFor(user)),
        ...(passwordRemoved ? { notice: serverMessages.googleLinkedPasswordRemoved } : {}),
      };
    },

    /** The user a bearer token belongs to, or null (bad token, revoked version, or the account no longer exists). */
    async authenticate(token: string): Promise<SessionUser | null> {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const user = await users.findSessionUser(claims.userId);
      return user && user.token_version === claims.version ? user : null;
    },

    account,

    /**
     * Sets a new password. An account with a password must give the current one; a Google-only account may set its
     * first without. Every other session ends (the token version moves on); the caller gets a fresh token.
     */
    async changePassword(
      session: SessionUser,
      input: { current_password?: string | undefined; new_password: string },
    ): Promise<TokenResponse> {
      const user = await account(session);
      if (user.password_hash) {
        await limit(loginPerAccount, user.email);
        const valid =
          input.current_password !== undefined && (await verifyPassword(user.password_hash, input.current_password));
        // 403, not 401: the client signs out on any 401, and a typo must not end the session.
        if (!valid) throw errors.wrongPassword();
        await loginPerAccount.refund(user.email);
      }
      const version = await users.setPassword(user.id, await hashPassword(input.new_password), clock.now());
      return tokenFor({ id: user.id, token_version: version });
    },

    /** Ends every session of the user, this one included. */
    async signOutEverywhere(user: SessionUser): Promise<void> {
      await users.bumpTokenVersion(user.id, clock.now());
    },

    /**
     * Deletes the account and everything in it. A password account confirms with its password; a Google-only account
     * with a Google sign-in in the last 10 minutes. Payment records stay, without the person (users.repo).
     */
    async deleteAccount(session: SessionUser, input: { password?: string | undefined }): Promise<void> {
      const user = await account(session);
      if (user.password_hash) {
        await limit(loginPerAccount, user.email);
        const valid = input.password !== undefined && (await verifyPassword(user.password_hash, input.password));
        if (!valid) throw errors.wrongPassword();
      } else {
        const signedInAt = user.google_signed_in_at;
        if (signedInAt === null || clock.now() - signedInAt > RECENT_GOOGLE_SIGN_IN_MS)
          throw errors.recentSignInRequired();
      }
      await users.deleteAccount(user.id, clock.now());
    },
  };

  async function findOrCreateGoogleUser(identity: {
    sub: string;
    email: string;
    emailVerified: boolean;
    name: string;
  }): Promise<{ userId: string; passwordRemoved: boolean }> {
    const linked = await users.findByGoogleSub(identity.sub);
    if (linked) return { userId: linked.id, passwordRemoved: false };
    // Linking by email is only safe when Google vouches for the address.
    if (!identity.emailVerified) throw errors.googleEmailUnverified();
    const email = identity.email.trim().toLowerCase();
    const existing = await users.findByEmail(email);
    const now = clock.now();
    if (existing) {
      // Google's stable id is `sub`: an address that moved to another Google account does not open this one.
      if (existing.google_sub !== null) throw errors.googleAccountMismatch();
      // Nobody proved they own this address when the password was set (there is no email verification): whoever
      // set it might be someone who signed up with the victim's address first. Linking drops that password and ends
      // its sessions, so Google's verified owner is the only way in until they set a password themselves.
      if (!(await users.linkGoogle(existing.id, identity.sub, now))) {
        throw errors.googleAccountMismatch();
      }
      return { userId: existing.id, passwordRemoved: existing.password_hash !== null };
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
      return { userId: id, passwordRemoved: false };
    } catch (error) {
      // Two first sign-ins at once: the other one created the account.
      if (!isUniqueViolation(error)) throw error;
      const winner = await users.findByGoogleSub(identity.sub);
      if (!winner) throw errors.googleAccountMismatch();
      return { userId: winner.id, passwordRemoved: false };
    }
  }
}

export type AuthService = ReturnType<typeof createAuthService>;

async function limit(limiter: RateLimiter, key: string): Promise<void> {
  const waitMs = await limiter.hit(key);
  if (waitMs !== null) throw rateLimited(waitMs);
}
