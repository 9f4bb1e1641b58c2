import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { Identity } from '../../src/core/index.js';
import { AuthenticationError, Authenticator, hashApiKey } from '../../src/server/auth/index.js';

const directory: Record<string, Identity> = {
  'acme/alice': {
    tenant: 'acme',
    user: 'alice',
    roles: ['employee'],
    dataLevel: 'L1',
    attributes: { department: 'sales' },
  },
  'globex/gina': {
    tenant: 'globex',
    user: 'gina',
    roles: ['finance_analyst'],
    dataLevel: 'L3',
    attributes: {},
  },
};
const resolve = (t: string, u: string) => directory[`${t}/${u}`];
const secret = 'a-test-secret-that-is-at-least-32-bytes-long';

async function hsToken(claims: Record<string, unknown>, opts: { issuer?: string; exp?: string } = {}) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(opts.issuer ?? 'https://idp.example')
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '5m')
    .sign(new TextEncoder().encode(secret));
}

describe('Authenticator', () => {
  const auth = new Authenticator(
    {
      apiKeys: [{ tenant: 'acme', user: 'alice', hash: hashApiKey('tw_alice_key') }],
      jwt: { issuer: 'https://idp.example', secret },
    },
    resolve,
  );

  it('resolves an API key to the directory identity', async () => {
    const id = await auth.authenticate({ authorization: 'Bearer tw_alice_key' });
    expect(id).toBe(directory['acme/alice']);
    expect(await auth.authenticate({ 'x-api-key': 'tw_alice_key' })).toBe(directory['acme/alice']);
  });

  it('stores only hashes', () => {
    expect(hashApiKey('tw_alice_key')).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hashApiKey('tw_alice_key')).not.toContain('tw_alice_key');
  });

  it('refuses missing, unknown and malformed credentials with a typed error', async () => {
    await expect(auth.authenticate({})).rejects.toBeInstanceOf(AuthenticationError);
    await expect(auth.authenticate({ authorization: 'Bearer nope' })).rejects.toThrow(/unknown API key/);
    await expect(auth.authenticate({ authorization: 'Basic abc' })).rejects.toThrow(/missing credential/);
  });

  it('accepts a JWT from the configured issuer; roles in the token are ignored', async () => {
    const token = await hsToken({ sub: 'gina', tenant: 'globex', roles: ['admin'] });
    const id = await auth.authenticate({ authorization: `Bearer ${token}` });
    expect(id).toBe(directory['globex/gina']);
    expect(id.roles).toEqual(['finance_analyst']);
  });

  it('refuses a JWT from another issuer, an expired one, a forged one and one for an unknown user', async () => {
    const other = await hsToken({ sub: 'gina', tenant: 'globex' }, { issuer: 'https://evil.example' });
    await expect(auth.authenticate({ authorization: `Bearer ${other}` })).rejects.toThrow(/invalid token/);
    const expired = await hsToken({ sub: 'gina', tenant: 'globex' }, { exp: '-1m' });
    await expect(auth.authenticate({ authorization: `Bearer ${expired}` })).rejects.toThrow(/invalid token/);
    const forged = `${(await hsToken({ sub: 'gina', tenant: 'globex' })).slice(0, -4)}AAAA`;
    await expect(auth.authenticate({ authorization: `Bearer ${forged}` })).rejects.toThrow(/invalid token/);
    const ghost = await hsToken({ sub: 'ghost', tenant: 'acme' });
    await expect(auth.authenticate({ authorization: `Bearer ${ghost}` })).rejects.toThrow(/no such user/);
  });

  it('verifies RS256 tokens against a configured public key', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rs = new Authenticator(
      { jwt: { issuer: 'idp', publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() } },
      resolve,
    );
    const token = await new SignJWT({ sub: 'alice', tenant: 'acme' })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer('idp')
      .setExpirationTime('1m')
      .sign(privateKey);
    expect((await rs.authenticate({ authorization: `Bearer ${token}` })).user).toBe('alice');
  });

  it('refuses a short HS256 secret at start-up', () => {
    expect(() => new Authenticator({ jwt: { issuer: 'x', secret: 'short' } }, resolve)).toThrow(/32 bytes/);
  });
});
