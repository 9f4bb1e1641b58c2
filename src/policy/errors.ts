import { ConfigError } from '../core/index.js';

/** Where in a policy file something is wrong. */
export interface PolicyLocation {
  readonly file: string;
  /** Rule id (or section name when the problem is outside a rule). */
  readonly rule: string;
  /** Dotted field path inside the rule, e.g. `when.all.1.attr`. */
  readonly field: string;
  readonly line?: number;
}

/** A policy, parameter or reviewer file that cannot be used. Names file, rule, field and line. */
export class PolicyConfigError extends ConfigError {
  readonly location: PolicyLocation;

  constructor(location: PolicyLocation, message: string) {
    const where = location.line !== undefined ? `${location.file}:${location.line}` : location.file;
    super('policy.invalid', `rule "${location.rule}": field "${location.field}": ${message}`, {
      where,
      details: { ...location },
    });
    this.location = location;
  }
}
