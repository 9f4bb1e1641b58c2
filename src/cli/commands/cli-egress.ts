import { egressSettings, type TwinlineConfig } from '../../config/index.js';
import { TwinlineError } from '../../core/index.js';
import { Egress, type EgressGate, type EgressViewer } from '../../gates/index.js';

/**
 * The egress gate of a CLI command that prints stored records (docs/gates.md, "Gated doors"):
 * a record is shown as `viewer` may see it — a user of the directory named on the command line —
 * or, without one, as the record's owner would see it over the API.
 */
export class CliEgress {
  readonly #egress: Egress;

  constructor(private readonly config: TwinlineConfig) {
    this.#egress = new Egress(egressSettings(config, process.env));
  }

  /** The directory entry of `user` in `tenant`; an unknown name sees no more than level L1. */
  viewer(tenant: string, user: string): EgressViewer {
    return (
      this.config.users.find((u) => u.tenant === tenant && u.user === user) ?? {
        tenant,
        user,
        dataLevel: 'L1',
      }
    );
  }

  /** Checks a `--viewer` name against the directory (an unknown viewer is an error, not L1). */
  namedViewer(user: string, tenant: string | undefined, where: string): EgressViewer {
    const matches = this.config.users.filter(
      (u) => u.user === user && (tenant === undefined || u.tenant === tenant),
    );
    if (matches.length === 1) return matches[0]!;
    throw new TwinlineError(
      matches.length === 0 ? 'cli.unknown-viewer' : 'cli.ambiguous-viewer',
      matches.length === 0
        ? `no user ${JSON.stringify(user)} in the directory`
        : `user ${JSON.stringify(user)} is in several tenants; add --tenant`,
      { where },
    );
  }

  gate(viewer: EgressViewer, sessionId: string): EgressGate {
    return this.#egress.for({ viewer, sessionId, channel: 'cli' });
  }
}
