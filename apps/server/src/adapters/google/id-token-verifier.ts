import { createRemoteJWKSet, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';

/** What we keep from a verified Google ID token. */
export interface GoogleIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

export interface GoogleIdTokenVerifier {
  /** Resolves with the identity, or rejects with GoogleTokenError for any token that must not be trusted. */
  verify(idToken: string): Promise<GoogleIdentity>;
}

export class GoogleTokenError extends Error {
  override name = 'GoogleTokenError';
}

/** Google's published signing keys and the two issuer spellings it uses. */
export const GOOGLE_CERTS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/**
 * Verifies a Google ID token: RS256 signature against Google's keys, issuer, audience (our client id) and expiry.
 * `keys` defaults to Google's published key set (fetched and cached by jose); tests pass a local key set.
 */
export function createGoogleIdTokenVerifier(options: {
  clientId: string;
  keys?: JWTVerifyGetKey;
  /** Seconds of clock difference tolerated on exp/iat. */
  clockToleranceSeconds?: number;
  currentDate?: () => Date;
}): GoogleIdTokenVerifier {
  const keys = options.keys ?? createRemoteJWKSet(new URL(GOOGLE_CERTS_URL));
  return {
    async verify(idToken) {
      try {
        const { payload } = await jwtVerify(idToken, keys, {
          algorithms: ['RS256'],
          issuer: GOOGLE_ISSUERS,
          audience: options.clientId,
          requiredClaims: ['sub', 'exp', 'iat'],
          clockTolerance: options.clockToleranceSeconds ?? 5,
          ...(options.currentDate ? { currentDate: options.currentDate() } : {}),
        });
        if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') {
          throw new GoogleTokenError('token has no subject or email');
        }
        return {
          sub: payload.sub,
          email: payload.email,
          emailVerified: payload.email_verified === true || payload.email_verified === 'true',
          name: typeof payload.name === 'string' ? payload.name : '',
        };
      } catch (error) {
        if (error instanceof GoogleTokenError) throw error;
        if (error instanceof joseErrors.JOSEError) throw new GoogleTokenError(error.code);
        throw error;
      }
    },
  };
}
