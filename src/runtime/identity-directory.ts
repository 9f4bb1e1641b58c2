import { type Identity, TwinlineError } from '../core/index.js';

/**
 * Identities declared in configuration, looked up by (tenant, user). The only place the CLI and
 * the runtime get an identity from — never from a prompt or a request body.
 */
export class IdentityDirectory {
  readonly #byKey = new Map<string, Identity>();
  readonly #byUser = new Map<string, Identity[]>();

  constructor(users: readonly Identity[]) {
    for (const u of users) {
      this.#byKey.set(`${u.tenant}\u0000${u.user}`, u);
      this.#byUser.set(u.user, [...(this.#byUser.get(u.user) ?? []), u]);
    }
  }

  /**
   * The identity of `user` in `tenant`. Without a tenant the user name must be unique across
   * tenants. Throws `TwinlineError` (`identity.unknown-user` / `identity.ambiguous-user`).
   */
  resolve(user: string, tenant?: string): Identity {
    if (tenant !== undefined) {
      const found = this.#byKey.get(`${tenant}\u0000${user}`);
      if (!found) {
        throw new TwinlineError(
          'identity.unknown-user',
          `unknown user ${JSON.stringify(user)} in tenant ${JSON.stringify(tenant)}`,
          {
            where: '--user',
          },
        );
      }
      return found;
    }
    const all = this.#byUser.get(user) ?? [];
    if (all.length === 0) {
      throw new TwinlineError('identity.unknown-user', `unknown user ${JSON.stringify(user)}`, {
        where: '--user',
      });
    }
    if (all.length > 1) {
      throw new TwinlineError(
        'identity.ambiguous-user',
        `user ${JSON.stringify(user)} exists in tenants ${all.map((u) => u.tenant).join(', ')}; pass --tenant`,
        { where: '--user' },
      );
    }
    return all[0]!;
  }

  /** The identity of `user` in `tenant` as the directory holds it now, or undefined. */
  find(user: string, tenant: string): Identity | undefined {
    return this.#byKey.get(`${tenant}\u0000${user}`);
  }

  list(): Identity[] {
    return [...this.#byKey.values()];
  }
}
