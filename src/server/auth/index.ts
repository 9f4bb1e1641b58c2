export { ApiKeyDirectory, type ApiKeyEntry, hashApiKey } from './api-keys.js';
export { Authenticator, type AuthSettings, type IdentityResolver } from './authenticate.js';
export { AuthenticationError } from './errors.js';
export { type JwtSettings, JwtVerifier } from './jwt.js';
