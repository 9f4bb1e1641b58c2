import { TwinlineError } from '../../core/index.js';

/** The caller could not be identified: no credential, an unknown key, a bad or expired token. */
export class AuthenticationError extends TwinlineError {
  constructor(message: string) {
    super('unauthenticated', message);
  }
}
