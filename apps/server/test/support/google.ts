import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { createGoogleIdTokenVerifier, type GoogleIdTokenVerifier } from '../../src/adapters/google/id-token-verifier';
import { uniqueEmail } from './factories';

export type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export interface GoogleClaims {
  sub?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  iss?: string;
  aud?: string;
  expiresIn?: number;
  /** Another key than Google's (a forged token). */
  key?: KeyPair;
  kid?: string;
}

const KID = 'google-key-1';

/**
 * Google's sign-in, played locally: an RS256 key whose "certificates" the real verifier is given instead of
 * fetching Google's, and ID tokens shaped like Google's signed with it. Times come from `now` (the test clock).
 */
export class FakeGoogle {
  private keyPair: KeyPair | undefined;

  constructor(
    readonly clientId: string,
    private readonly now: () => number,
  ) {}

  private async key(): Promise<KeyPair> {
    this.keyPair ??= await generateKeyPair('RS256');
    return this.keyPair;
  }

  /** The real verifier, trusting this key only. */
  async verifier(): Promise<GoogleIdTokenVerifier> {
    const jwk: JWK = { ...(await exportJWK((await this.key()).publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
    return createGoogleIdTokenVerifier({
      clientId: this.clientId,
      keys: createLocalJWKSet({ keys: [jwk] }),
      currentDate: () => new Date(this.now()),
    });
  }

  /** An ID token: a new subject and address, verified, for this client, valid for an hour unless told otherwise. */
  async idToken(claims: GoogleClaims = {}): Promise<string> {
    const iat = Math.floor(this.now() / 1000);
    return new SignJWT({
      email: claims.email ?? uniqueEmail('google'),
      email_verified: claims.email_verified ?? true,
      name: claims.name ?? 'Google User',
    })
      .setProtectedHeader({ alg: 'RS256', kid: claims.kid ?? KID, typ: 'JWT' })
      .setSubject(claims.sub ?? `sub-${Math.random().toString(16).slice(2)}`)
      .setIssuer(claims.iss ?? 'https://accounts.google.com')
      .setAudience(claims.aud ?? this.clientId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + (claims.expiresIn ?? 3600))
      .sign((claims.key ?? (await this.key())).privateKey);
  }
}
