import { z } from 'zod';
import { findManifestViolation } from './registration-checks.js';
import { ToolRegistrationError } from './registration-error.js';
import type { ToolSpec } from './spec.js';

/** A tool as published to models and hosts: MCP-style manifest with its input JSON Schema. */
export interface ToolManifestEntry {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations: ToolSpec['annotations'];
  readonly riskLevel: ToolSpec['riskLevel'];
  readonly permissions: ToolSpec['permissions'];
  readonly requiresReview: boolean;
  readonly timeoutMs: number;
  readonly kind: NonNullable<ToolSpec['kind']>;
  readonly fieldTags?: ToolSpec['fieldTags'];
  readonly argumentTags?: ToolSpec['argumentTags'];
  readonly thirdPartyFields?: ToolSpec['thirdPartyFields'];
  readonly cacheTtlMs?: number;
  readonly dataScopes?: ToolSpec['dataScopes'];
}

/**
 * Every tool the gateway can run, registered once at start-up. Registration refuses unsafe or
 * malformed manifests with a `ToolRegistrationError`; lookups are a single map access.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, ToolSpec>();

  /** Adds a tool, or throws `ToolRegistrationError` naming the rule, the tool and the field. */
  register(spec: ToolSpec): void {
    const violation = findManifestViolation(spec);
    if (violation) throw violation;
    if (this.#tools.has(spec.name)) {
      throw new ToolRegistrationError(
        'tool.duplicate-name',
        spec.name,
        'name',
        'a tool with this name is already registered',
      );
    }
    this.#tools.set(spec.name, spec);
  }

  /** Registers every tool, in order; the first refusal aborts start-up. */
  registerAll(specs: Iterable<ToolSpec>): this {
    for (const spec of specs) this.register(spec);
    return this;
  }

  /** Removes a tool (an MCP server switched off or reconnected); false when it was not registered. */
  unregister(name: string): boolean {
    return this.#tools.delete(name);
  }

  get(name: string): ToolSpec | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  get size(): number {
    return this.#tools.size;
  }

  /** Every registered tool in registration order. */
  list(): ToolSpec[] {
    return [...this.#tools.values()];
  }

  /** The manifests with input schemas as JSON Schema (zod v4 `toJSONSchema`), for models and hosts. */
  toJsonSchemaManifest(): ToolManifestEntry[] {
    return this.list().map(toManifestEntry);
  }
}

/** One tool's published manifest. */
export function toManifestEntry(spec: ToolSpec): ToolManifestEntry {
  const entry: ToolManifestEntry = {
    name: spec.name,
    description: spec.description,
    inputSchema: z.toJSONSchema(spec.inputSchema, { unrepresentable: 'any' }) as Record<string, unknown>,
    annotations: spec.annotations,
    riskLevel: spec.riskLevel,
    permissions: spec.permissions,
    requiresReview: spec.requiresReview,
    timeoutMs: spec.timeoutMs,
    kind: spec.kind ?? 'domain',
    ...(spec.fieldTags ? { fieldTags: spec.fieldTags } : {}),
    ...(spec.argumentTags ? { argumentTags: spec.argumentTags } : {}),
    ...(spec.thirdPartyFields ? { thirdPartyFields: spec.thirdPartyFields } : {}),
    ...(spec.cacheTtlMs !== undefined ? { cacheTtlMs: spec.cacheTtlMs } : {}),
    ...(spec.dataScopes ? { dataScopes: spec.dataScopes } : {}),
  };
  return entry;
}
