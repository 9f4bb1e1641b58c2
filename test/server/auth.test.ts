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

describe('JWT claims: exp, lifetime, aud, iat and nbf', () => {
  const key = new TextEncoder().encode(secret);
  const now = () => Math.floor(Date.now() / 1000);
  /** A token with exactly these registered claims (nothing added by default). */
  const mint = (claims: Record<string, unknown>) =>
    new SignJWT({ sub: 'gina', tenant: 'globex', iss: 'https://idp.example', ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
  const verifier = (extra: Record<string, unknown> = {}) =>
    new Authenticator({ jwt: { issuer: 'https://idp.example', secret, ...extra } }, resolve);
  const bearer = async (a: Authenticator, claims: Record<string, unknown>) =>
    a.authenticate({ authorization: `Bearer ${await mint(claims)}` });

  // Each row: the claims (relative to now, in seconds), the settings, and what must happen.
  const rows: Array<
    [string, Record<string, number | string | string[]>, Record<string, unknown>, RegExp | 'ok']
  > = [
    ['no exp: never accepted', { iat: 0 }, {}, /"exp" claim/],
    ['exp within the default hour', { iat: 0, exp: 600 }, {}, 'ok'],
    ['lifetime over the default hour', { iat: 0, exp: 7200 }, {}, /lifetime 7200 s exceeds the 3600 s/],
    ['no iat: the remaining time counts', { exp: 7200 }, {}, /exceeds/],
    ['a configured longer lifetime', { iat: 0, exp: 7200 }, { maxLifetimeSeconds: 8000 }, 'ok'],
    ['a configured shorter lifetime', { iat: 0, exp: 600 }, { maxLifetimeSeconds: 300 }, /exceeds the 300 s/],
    ['expired beyond the skew', { iat: -600, exp: -60 }, {}, /invalid token/],
    ['expired within the skew', { iat: -600, exp: -10 }, {}, 'ok'],
    ['issued in the future beyond the skew', { iat: 120, exp: 600 }, {}, /issued in the future/],
    ['issued slightly in the future (within the skew)', { iat: 10, exp: 600 }, {}, 'ok'],
    ['not valid yet beyond the skew', { iat: 0, nbf: 120, exp: 600 }, {}, /nbf|invalid token/],
    ['not valid yet within the skew', { iat: 0, nbf: 10, exp: 600 }, {}, 'ok'],
    ['a zero skew is strict', { iat: 0, nbf: 10, exp: 600 }, { clockSkewSeconds: 0 }, /invalid token/],
    ['aud configured and missing', { iat: 0, exp: 600 }, { audience: 'twinline' }, /"aud"/],
    ['aud configured and wrong', { iat: 0, exp: 600, aud: 'billing' }, { audience: 'twinline' }, /aud/],
    ['aud configured and matching', { iat: 0, exp: 600, aud: 'twinline' }, { audience: 'twinline' }, 'ok'],
    [
      'aud in a list that holds ours',
      { iat: 0, exp: 600, aud: ['x', 'twinline'] },
      { audience: 'twinline' },
      'ok',
    ],
    ['no audience configured, token names one', { iat: 0, exp: 600, aud: 'billing' }, {}, /none configured/],
  ];

  it.each(rows)('%s', async (_name, rel, settings, expected) => {
    const t = now();
    const claims = Object.fromEntries(
      Object.entries(rel).map(([k, v]) => [k, typeof v === 'number' && k !== 'aud' ? t + v : v]),
    );
    const p = bearer(verifier(settings), claims);
    if (expected === 'ok') expect((await p).user).toBe('gina');
    else await expect(p).rejects.toThrow(expected);
  });

  it('refuses a lifetime or skew beyond their bounds at start-up', () => {
    expect(() => verifier({ maxLifetimeSeconds: 0 })).toThrow(/maxLifetimeSeconds/);
    expect(() => verifier({ maxLifetimeSeconds: 30 * 24 * 3600 })).toThrow(/maxLifetimeSeconds/);
    expect(() => verifier({ clockSkewSeconds: 3600 })).toThrow(/clockSkewSeconds/);
  });
});
