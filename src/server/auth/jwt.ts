import { createSecretKey, type KeyObject, type webcrypto } from 'node:crypto';
import { importSPKI, type JWTPayload, jwtVerify } from 'jose';
import { AuthenticationError } from './errors.js';

/** JWT settings from config: the issuer and the key decide who may mint identities. */
export interface JwtSettings {
  readonly issuer: string;
  readonly audience?: string;
  /** HS256 shared secret (at least 32 bytes). */
  readonly secret?: string;
  /** PEM SPKI public key, used with `algorithm`. */
  readonly publicKey?: string;
  /** Algorithm of `publicKey` (default RS256). */
  readonly algorithm?: 'RS256' | 'ES256' | 'EdDSA';
  /** Claim holding the tenant (default `tenant`); the user is `sub`. */
  readonly tenantClaim?: string;
}

/** Verifies bearer JWTs and yields (tenant, user). Roles are never read from the token. */
export class JwtVerifier {
  private key: KeyObject | webcrypto.CryptoKey | undefined;

  constructor(private readonly settings: JwtSettings) {
    if (!settings.secret && !settings.publicKey) throw new RangeError('jwt: set `secret` or `publicKey`');
    if (settings.secret && Buffer.byteLength(settings.secret) < 32) {
      throw new RangeError('jwt: `secret` must be at least 32 bytes');
    }
  }

  async verify(token: string): Promise<{ tenant: string; user: string }> {
    const key = await this.resolveKey();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: [this.settings.secret ? 'HS256' : (this.settings.algorithm ?? 'RS256')],
      }));
    } catch (err) {
      throw new AuthenticationError(`invalid token: ${(err as Error).message}`);
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
