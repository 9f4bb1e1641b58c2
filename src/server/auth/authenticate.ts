import type { Identity } from '../../core/index.js';
import { ApiKeyDirectory, type ApiKeyEntry } from './api-keys.js';
import { AuthenticationError } from './errors.js';
import { type JwtSettings, JwtVerifier } from './jwt.js';

/** Resolves a (tenant, user) pair to the identity the directory (config) declares. */
export type IdentityResolver = (tenant: string, user: string) => Identity | undefined;

export interface AuthSettings {
  readonly apiKeys?: readonly ApiKeyEntry[];
  readonly jwt?: JwtSettings;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Tenant authentication for the HTTP API. Identity comes only from a credential checked here —
 * an API key (hashed at rest) or a JWT from the configured issuer — and then from the directory,
 * so roles and attributes are never taken from the token or the request body.
 */
export class Authenticator {
  private readonly keys: ApiKeyDirectory;
  private readonly jwt: JwtVerifier | undefined;

  constructor(
    settings: AuthSettings,
    private readonly resolve: IdentityResolver,
  ) {
    this.keys = new ApiKeyDirectory(settings.apiKeys ?? []);
    this.jwt = settings.jwt ? new JwtVerifier(settings.jwt) : undefined;
  }

  /** Authenticates from request headers (`Authorization: Bearer …` or `X-Api-Key`). */
  async authenticate(headers: Readonly<Record<string, string | string[] | undefined>>): Promise<Identity> {
    const credential = readCredential(headers);
    if (!credential)
      throw new AuthenticationError('missing credential: send Authorization: Bearer <key or JWT>');
    let who: { tenant: string; user: string };
    if (JWT_SHAPE.test(credential)) {
      if (!this.jwt) throw new AuthenticationError('JWT authentication is not configured');
      who = await this.jwt.verify(credential);
    } else {
      const entry = this.keys.find(credential);
      if (!entry) throw new AuthenticationError('unknown API key');
      who = entry;
    }
    const identity = this.resolve(who.tenant, who.user);
    if (!identity) throw new AuthenticationError(`no such user ${who.tenant}/${who.user}`);
    return identity;
  }
}

/** The credential a request presents (`Authorization: Bearer …` or `X-Api-Key`), if any. */
export function readCredential(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  const key = headers['x-api-key'];
  return typeof key === 'string' && key.length > 0 ? key : undefined;
}
