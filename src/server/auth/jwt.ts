import { createSecretKey, type KeyObject, type webcrypto } from 'node:crypto';
import { importSPKI, type JWTPayload, jwtVerify } from 'jose';
import { AuthenticationError } from './errors.js';

/** Lifetime a token may have when `maxLifetimeSeconds` is not set: one hour. */
export const DEFAULT_JWT_MAX_LIFETIME_S = 3600;
/** Clock skew tolerated when `clockSkewSeconds` is not set. */
export const DEFAULT_JWT_CLOCK_SKEW_S = 30;
/** Upper bounds of both settings: a longer lifetime or skew is a configuration error. */
export const MAX_JWT_LIFETIME_S = 7 * 24 * 3600;
export const MAX_JWT_CLOCK_SKEW_S = 300;

/** JWT settings from config: the issuer and the key decide who may mint identities. */
export interface JwtSettings {
  readonly issuer: string;
  /** When set, every token must carry it in `aud`; when not, a token that names any audience is refused. */
  readonly audience?: string;
  /** HS256 shared secret (at least 32 bytes). */
  readonly secret?: string;
  /** PEM SPKI public key, used with `algorithm`. */
  readonly publicKey?: string;
  /** Algorithm of `publicKey` (default RS256). */
  readonly algorithm?: 'RS256' | 'ES256' | 'EdDSA';
  /** Claim holding the tenant (default `tenant`); the user is `sub`. */
  readonly tenantClaim?: string;
  /** Longest lifetime a token may have: `exp - iat` (or, without `iat`, `exp - now`), in seconds. */
  readonly maxLifetimeSeconds?: number;
  /** Clock difference tolerated on `exp`, `nbf` and `iat`, in seconds. */
  readonly clockSkewSeconds?: number;
}

/**
 * Verifies bearer JWTs and yields (tenant, user). Roles are never read from the token. A token
 * must expire (`exp` is required) within the configured lifetime; `nbf` and `iat` are honoured
 * (a token issued in the future is refused), all with a bounded clock skew; `aud` must name this
 * server when an audience is configured (docs/server.md, "JWT").
 */
export class JwtVerifier {
  private key: KeyObject | webcrypto.CryptoKey | undefined;
  readonly #maxLifetimeS: number;
  readonly #skewS: number;

  constructor(private readonly settings: JwtSettings) {
    if (!settings.secret && !settings.publicKey) throw new RangeError('jwt: set `secret` or `publicKey`');
    if (settings.secret && Buffer.byteLength(settings.secret) < 32) {
      throw new RangeError('jwt: `secret` must be at least 32 bytes');
    }
    this.#maxLifetimeS = settings.maxLifetimeSeconds ?? DEFAULT_JWT_MAX_LIFETIME_S;
    this.#skewS = settings.clockSkewSeconds ?? DEFAULT_JWT_CLOCK_SKEW_S;
    if (
      !Number.isInteger(this.#maxLifetimeS) ||
      this.#maxLifetimeS < 1 ||
      this.#maxLifetimeS > MAX_JWT_LIFETIME_S
    ) {
      throw new RangeError(`jwt: \`maxLifetimeSeconds\` must be an integer from 1 to ${MAX_JWT_LIFETIME_S}`);
    }
    if (!Number.isInteger(this.#skewS) || this.#skewS < 0 || this.#skewS > MAX_JWT_CLOCK_SKEW_S) {
      throw new RangeError(`jwt: \`clockSkewSeconds\` must be an integer from 0 to ${MAX_JWT_CLOCK_SKEW_S}`);
    }
  }

  async verify(token: string, nowMs: number = Date.now()): Promise<{ tenant: string; user: string }> {
    const key = await this.resolveKey();
    const audience = this.settings.audience;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        issuer: this.settings.issuer,
        ...(audience !== undefined ? { audience } : {}),
        algorithms: [this.settings.secret ? 'HS256' : (this.settings.algorithm ?? 'RS256')],
        requiredClaims: audience !== undefined ? ['exp', 'aud'] : ['exp'],
        clockTolerance: this.#skewS,
        currentDate: new Date(nowMs),
      }));
    } catch (err) {
      throw new AuthenticationError(`invalid token: ${(err as Error).message}`);
    }
    if (audience === undefined && payload.aud !== undefined) {
      // A token minted for some audience is meant for that service; with none configured here we
      // cannot tell it is ours, so it is not accepted (configure `jwt.audience`).
      throw new AuthenticationError(
        'invalid token: it names an audience ("aud") but this server has none configured',
      );
    }
    const now = Math.floor(nowMs / 1000);
    const exp = payload.exp as number;
    if (payload.iat !== undefined) {
      if (typeof payload.iat !== 'number' || !Number.isFinite(payload.iat))
        throw new AuthenticationError('invalid token: "iat" must be a number');
      if (payload.iat > now + this.#skewS)
        throw new AuthenticationError('invalid token: issued in the future ("iat")');
    }
    const from = typeof payload.iat === 'number' ? payload.iat : now;
    if (exp - from > this.#maxLifetimeS + this.#skewS) {
      throw new AuthenticationError(
        `invalid token: lifetime ${exp - from} s exceeds the ${this.#maxLifetimeS} s this server accepts`,
      );
    }
    const tenant = payload[this.settings.tenantClaim ?? 'tenant'];
    if (typeof payload.sub !== 'string' || typeof tenant !== 'string') {
      throw new AuthenticationError('token lacks `sub` or the tenant claim');
    }
    return { tenant, user: payload.sub };
  }

  private async resolveKey(): Promise<KeyObject | webcrypto.CryptoKey> {
    if (!this.key) {
      this.key = this.settings.secret
        ? createSecretKey(Buffer.from(this.settings.secret, 'utf8'))
        : await importSPKI(this.settings.publicKey as string, this.settings.algorithm ?? 'RS256');
    }
    return this.key;
  }
}
