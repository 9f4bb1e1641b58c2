import { DATA_LEVELS } from '../core/index.js';
import { ToolRegistrationError } from './registration-error.js';
import { RISK_LEVELS, TOOL_KINDS, type ToolSpec } from './spec.js';

/** Tool names are MCP-compatible identifiers. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const RISKS: ReadonlySet<string> = new Set(RISK_LEVELS);
const LEVELS: ReadonlySet<string> = new Set(DATA_LEVELS);
const KINDS: ReadonlySet<string> = new Set(TOOL_KINDS);

/**
 * The registration rules as a pure function: the first rule a manifest breaks, or `undefined`.
 * Uniqueness needs the registry's state and is checked there.
 */
export function findManifestViolation(spec: ToolSpec): ToolRegistrationError | undefined {
  const name = typeof spec?.name === 'string' ? spec.name : String(spec?.name);
  const refuse = (code: ConstructorParameters<typeof ToolRegistrationError>[0], field: string, msg: string) =>
    new ToolRegistrationError(code, name, field, msg);

  if (typeof spec?.name !== 'string' || !TOOL_NAME_PATTERN.test(spec.name)) {
    return refuse('tool.invalid-name', 'name', `name must match ${TOOL_NAME_PATTERN.source}`);
  }
  if (!RISKS.has(spec.riskLevel as string)) {
    return refuse(
      'tool.unknown-risk-level',
      'riskLevel',
      `unknown risk level ${JSON.stringify(spec.riskLevel)}; expected one of ${RISK_LEVELS.join(', ')}`,
    );
  }
  const perms = spec.permissions;
  if (!perms || !Array.isArray(perms.allowedRoles) || typeof perms.category !== 'string' || !perms.category) {
    return refuse(
      'tool.invalid-permissions',
      'permissions',
      'permissions needs allowedRoles (string[]) and a non-empty category',
    );
  }
  if (!LEVELS.has(perms.requiredDataLevel as string)) {
    return refuse(
      'tool.unknown-data-level',
      'permissions.requiredDataLevel',
      `unknown data level ${JSON.stringify(perms.requiredDataLevel)}; expected one of ${DATA_LEVELS.join(', ')}`,
    );
  }
  if (spec.kind !== undefined && !KINDS.has(spec.kind)) {
    return refuse('tool.unknown-kind', 'kind', `unknown kind ${JSON.stringify(spec.kind)}`);
  }
  if ((spec.riskLevel === 'high' || spec.riskLevel === 'critical') && spec.requiresReview !== true) {
    return refuse(
      'tool.review-required',
      'requiresReview',
      `a ${spec.riskLevel}-risk tool must declare requiresReview: true`,
    );
  }
  if (!spec.annotations) {
    return refuse('tool.destructive-read-only', 'annotations', 'annotations are required');
  }
  if (spec.annotations.destructive && spec.annotations.readOnly) {
    return refuse(
      'tool.destructive-read-only',
      'annotations',
      'a destructive tool cannot be declared read-only',
    );
  }
  if (typeof spec.timeoutMs !== 'number' || !Number.isInteger(spec.timeoutMs) || spec.timeoutMs <= 0) {
    return refuse('tool.invalid-timeout', 'timeoutMs', 'timeoutMs must be a positive integer (milliseconds)');
  }
  if (spec.cacheTtlMs !== undefined) {
    if (!spec.annotations.readOnly) {
      return refuse('tool.cache-on-write', 'cacheTtlMs', 'only read-only tools may declare cacheTtlMs');
    }
    if (typeof spec.cacheTtlMs !== 'number' || !Number.isFinite(spec.cacheTtlMs) || spec.cacheTtlMs <= 0) {
      return refuse('tool.invalid-cache-ttl', 'cacheTtlMs', 'cacheTtlMs must be a positive number');
    }
  }
  if (!spec.inputSchema || typeof (spec.inputSchema as { safeParse?: unknown }).safeParse !== 'function') {
    return refuse('tool.invalid-schema', 'inputSchema', 'inputSchema must be a zod schema');
  }
  if (typeof spec.execute !== 'function') {
    return refuse('tool.missing-execute', 'execute', 'execute must be a function');
  }
  return undefined;
}
