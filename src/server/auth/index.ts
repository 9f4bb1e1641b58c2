export { ApiKeyDirectory, type ApiKeyEntry, hashApiKey } from './api-keys.js';
export { Authenticator, type AuthSettings, type IdentityResolver, readCredential } from './authenticate.js';
export { AuthenticationError } from './errors.js';
export {
  DEFAULT_JWT_CLOCK_SKEW_S,
  DEFAULT_JWT_MAX_LIFETIME_S,
  type JwtSettings,
  JwtVerifier,
  MAX_JWT_CLOCK_SKEW_S,
  MAX_JWT_LIFETIME_S,
} from './jwt.js';
export { type MetricsKeyEntry, MetricsKeys } from './metrics-keys.js';
