import { jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../adapters/clock';

/**
 * Access tokens: HS256 JWTs (the algorithm is pinned on verification) carrying the user id, the user's token version
 * (claim `ver`; bumping the version on the user row ends every token issued before) and an expiry.
 */
export interface TokenService {
  issue(userId: string, version: number): Promise<string>;
  /** The user id and version of a valid token, or null for anything else (garbage, expired, other key…). */
  verify(token: string): Promise<{ userId: string; version: number } | null>;
}

const ISSUER = 'flashcards';
const AUDIENCE = 'flashcards-api';

export function createTokenService(options: { secret: string; ttlMs: number; clock: Clock }): TokenService {
  // Imported once: handing jose raw bytes would import the key again on every sign and verify.
  const keyPromise = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(options.secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  const nowSeconds = () => Math.floor(options.clock.now() / 1000);
  // Tokens already verified, with their expiry: a signed-in app sends the same token with every request, and checking
  // its signature (WebCrypto, asynchronous) cost more than the rest of the authentication. The expiry is still checked
  // on every use, and the version against the user's row by the caller, so a cached token ends exactly when it would.
  const verified = new LRUCache<string, { userId: string; version: number; exp: number }>({ max: 10_000 });
  return {
    async issue(userId, version) {
      const iat = nowSeconds();
      return new SignJWT({ ver: version })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + Math.floor(options.ttlMs / 1000))
        .sign(await keyPromise);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) return known.exp > nowSeconds() ? { userId: known.userId, version: known.version } : null;
      try {
        const { payload } = await jwtVerify(token, await keyPromise, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ['sub', 'exp'],
          currentDate: new Date(options.clock.now()),
        });
        if (typeof payload.sub !== 'string') return null;
        // Tokens from before versions existed carry none: they belong to version 0.
        const version = payload.ver === undefined ? 0 : payload.ver;
        if (typeof version !== 'number' || !Number.isSafeInteger(version)) return null;
        if (typeof payload.exp === 'number') verified.set(token, { userId: payload.sub, version, exp: payload.exp });
        return { userId: payload.sub, version };
      } catch {
        return null;
      }
    },
  };
}
