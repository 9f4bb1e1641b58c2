import { z } from 'zod';
import type { Identity } from '../core/index.js';
import type { ToolSpec } from '../tools/index.js';

/** What kinds of value an attribute can hold. `any` is a schema that says nothing (accept all). */
export type AttributeKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'any';

/** Ordered levels: ranks 1..4 that literals may also name (`L3`, `high`). */
export type LevelKind = 'data' | 'risk';

/**
 * The type of one attribute as conditions see it, derived from trusted declarations: a tool's
 * input schema (`args.*`), the user directory (`principal.*`), the manifest (`tool.*`).
 */
export interface AttributeType {
  readonly kinds: ReadonlySet<AttributeKind>;
  /** Every value a scalar can take, when the declaration enumerates them (enum, known users). */
  readonly values?: ReadonlySet<string | number | boolean>;
  /** Element type of an array. */
  readonly items?: AttributeType;
  /** Properties of an object (with whether each is required). */
  readonly props?: ReadonlyMap<string, { readonly type: AttributeType; readonly required: boolean }>;
  /** Numeric bounds, when declared. */
  readonly min?: number;
  readonly max?: number;
  /** A level rank (compared with level names or integers 1..4). */
  readonly level?: LevelKind;
  /** False when every caller / call has the attribute. */
  readonly optional: boolean;
}

/** What a tool offers conditions: its category and its argument object. */
export interface ToolShape {
  readonly category: string;
  readonly args: AttributeType;
}

/**
 * Everything a policy, reviewer or parameter file may refer to, for load-time checks: tools
 * (with argument types), principal attributes (built-ins and `attributes` from the directory),
 * the declared roles, tenants and categories.
 */
export interface PolicySchema {
  readonly tools: ReadonlyMap<string, ToolShape>;
  readonly principal: ReadonlyMap<string, AttributeType>;
  readonly roles: ReadonlySet<string>;
  readonly tenants: ReadonlySet<string>;
  readonly categories: ReadonlySet<string>;
}

export interface PolicySchemaInput {
  /** Every registered tool (their input schemas type `args.*`). */
  readonly tools: Iterable<Pick<ToolSpec, 'name' | 'inputSchema' | 'permissions'>>;
  /** The user directory: identity attributes come only from here. */
  readonly users: readonly Identity[];
  /** Declared roles (`roles.yaml`), besides those users hold. */
  readonly roles?: Iterable<string>;
}

const ANY: AttributeType = { kinds: new Set(['any']), optional: true };

function union(a: AttributeType, b: AttributeType): AttributeType {
  const kinds = new Set([...a.kinds, ...b.kinds]);
  const values = a.values && b.values ? new Set([...a.values, ...b.values]) : undefined;
  const items = a.items && b.items ? union(a.items, b.items) : (a.items ?? b.items);
  let props: Map<string, { type: AttributeType; required: boolean }> | undefined;
  if (a.props || b.props) {
    props = new Map();
    for (const [k, v] of a.props ?? [])
      props.set(k, { type: v.type, required: v.required && !!b.props?.has(k) });
    for (const [k, v] of b.props ?? []) {
      const had = props.get(k);
      props.set(
        k,
        had
          ? { type: union(had.type, v.type), required: had.required && v.required }
          : { ...v, required: false },
      );
    }
  }
  return {
    kinds,
    ...(values ? { values } : {}),
    ...(items ? { items } : {}),
    ...(props ? { props } : {}),
    ...(a.min !== undefined && b.min !== undefined ? { min: Math.min(a.min, b.min) } : {}),
    ...(a.max !== undefined && b.max !== undefined ? { max: Math.max(a.max, b.max) } : {}),
    ...(a.level && a.level === b.level ? { level: a.level } : {}),
    optional: a.optional || b.optional,
  };
}

type Json = Record<string, unknown>;

/** The attribute type of a JSON Schema node (as zod's `toJSONSchema` writes it). */
export function attributeTypeOfJsonSchema(schema: unknown, optional = false): AttributeType {
  if (!schema || typeof schema !== 'object') return { ...ANY, optional };
  const s = schema as Json;
  const alts = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alts) && alts.length > 0) {
    const parts = alts
      .filter((x) => !(x && typeof x === 'object' && (x as Json).type === 'null'))
      .map((x) => attributeTypeOfJsonSchema(x, optional));
    return parts.length === 0 ? { ...ANY, optional } : parts.reduce(union);
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return attributeTypeOfJsonSchema(s.allOf[0], optional);
  const enumValues = Array.isArray(s.enum) ? (s.enum as unknown[]) : 'const' in s ? [s.const] : undefined;
  if (enumValues) {
    const scalars = enumValues.filter((v): v is string | number | boolean =>
      ['string', 'number', 'boolean'].includes(typeof v),
    );
    const kinds = new Set(scalars.map((v) => typeof v as AttributeKind));
    return { kinds, values: new Set(scalars), optional };
  }
  const type = s.type;
  if (Array.isArray(type)) {
    return type
      .filter((t) => t !== 'null')
      .map((t) => attributeTypeOfJsonSchema({ ...s, type: t }, optional))
      .reduce(union, { kinds: new Set<AttributeKind>(), optional });
  }
  switch (type) {
    case 'string':
      return { kinds: new Set(['string']), optional };
    case 'integer':
    case 'number':
      return {
        kinds: new Set(['number']),
        ...(typeof s.minimum === 'number' ? { min: s.minimum } : {}),
        ...(typeof s.exclusiveMinimum === 'number' ? { min: s.exclusiveMinimum } : {}),
        ...(typeof s.maximum === 'number' ? { max: s.maximum } : {}),
        ...(typeof s.exclusiveMaximum === 'number' ? { max: s.exclusiveMaximum } : {}),
        optional,
      };
    case 'boolean':
      return { kinds: new Set(['boolean']), optional };
    case 'array':
      return { kinds: new Set(['array']), items: attributeTypeOfJsonSchema(s.items), optional };
    case 'object': {
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const props = new Map<string, { type: AttributeType; required: boolean }>();
      for (const [k, v] of Object.entries((s.properties as Json | undefined) ?? {})) {
        props.set(k, { type: attributeTypeOfJsonSchema(v, !required.has(k)), required: required.has(k) });
      }
      // Extra keys allowed (no `additionalProperties: false`): an unlisted key is any value.
      const open = s.additionalProperties !== false && s.additionalProperties !== undefined;
      return { kinds: new Set(open ? ['object', 'any'] : ['object']), props, optional };
    }
    default:
      return { ...ANY, optional };
  }
}

function scalarType(value: string | number | boolean | readonly string[]): AttributeType {
  if (Array.isArray(value)) {
    return {
      kinds: new Set(['array']),
      items: { kinds: new Set(['string']), optional: false },
      optional: false,
    };
  }
  return { kinds: new Set([typeof value as AttributeKind]), optional: false };
}

const known = (values: Iterable<string>): AttributeType => ({
  kinds: new Set(['string']),
  values: new Set(values),
  optional: false,
});

/**
 * Builds the schema conditions are checked against. Principal attributes: the built-ins, and
 * each `attributes` key typed as the union of what the directory's users hold (optional unless
 * every user has it). An attribute no user holds is not in the schema: a condition on it could
 * never be true for any caller, so it is a load error rather than a rule that silently never
 * matches.
 */
export function policySchema(input: PolicySchemaInput): PolicySchema {
  const tools = new Map<string, ToolShape>();
  const categories = new Set<string>();
  for (const t of input.tools) {
    // Converted on first use: a one-shot command checks only the tools its rules name.
    let args: AttributeType | undefined;
    tools.set(t.name, {
      category: t.permissions.category,
      get args(): AttributeType {
        if (!args) {
          try {
            args = {
              ...attributeTypeOfJsonSchema(z.toJSONSchema(t.inputSchema, { unrepresentable: 'any' })),
              optional: false,
            };
          } catch {
            args = ANY;
          }
        }
        return args;
      },
    });
    categories.add(t.permissions.category);
  }
  const roles = new Set<string>(input.roles ?? []);
  const tenants = new Set<string>();
  const attrs = new Map<string, AttributeType>();
  const holders = new Map<string, number>();
  for (const u of input.users) {
    for (const r of u.roles) roles.add(r);
    tenants.add(u.tenant);
    for (const [k, v] of Object.entries(u.attributes)) {
      const t = scalarType(v);
      const had = attrs.get(k);
      attrs.set(k, had ? union(had, t) : t);
      holders.set(k, (holders.get(k) ?? 0) + 1);
    }
  }
  const principal = new Map<string, AttributeType>([
    ['user', known(input.users.map((u) => u.user))],
    ['tenant', known(tenants)],
    ['roles', { kinds: new Set(['array']), items: { ...known(roles), optional: false }, optional: false }],
    ['dataLevel', { kinds: new Set(['number']), level: 'data', min: 1, max: 4, optional: false }],
  ]);
  for (const [k, t] of attrs) {
    if (principal.has(k)) continue;
    principal.set(k, { ...t, optional: (holders.get(k) ?? 0) < input.users.length });
  }
  return { tools, principal, roles, tenants, categories };
}

/** The `tool.*` attributes, typed from the manifests in scope. */
export function toolAttributeType(
  name: string,
  schema: PolicySchema,
  inScope: readonly string[],
): AttributeType {
  switch (name) {
    case 'name':
      return known(inScope);
    case 'category':
      return known(inScope.map((t) => schema.tools.get(t)?.category ?? ''));
    case 'risk':
      return { kinds: new Set(['number']), level: 'risk', min: 1, max: 4, optional: false };
    case 'dataLevel':
      return { kinds: new Set(['number']), level: 'data', min: 1, max: 4, optional: false };
    default:
      return { kinds: new Set(['array']), items: known(schema.roles), optional: false };
  }
}

/** The union of `args.<path>` over the tools in scope; undefined when no tool has it. */
export function argumentType(
  path: readonly string[],
  schema: PolicySchema,
  inScope: readonly string[],
): AttributeType | undefined {
  let out: AttributeType | undefined;
  let missing = false;
  for (const name of inScope) {
    const t = propertyType(schema.tools.get(name)?.args, path);
    if (t) out = out ? union(out, t) : t;
    else missing = true;
  }
  // A tool in scope without the argument makes it absent there.
  return out && missing ? { ...out, optional: true } : out;
}

function propertyType(root: AttributeType | undefined, path: readonly string[]): AttributeType | undefined {
  let cur = root;
  let optional = false;
  for (const key of path) {
    if (!cur) return undefined;
    const p = cur.props?.get(key);
    if (p) {
      optional ||= !p.required;
      cur = p.type;
    } else if (cur.kinds.has('any')) {
      return ANY;
    } else return undefined;
  }
  return cur ? { ...cur, optional: optional || cur.optional } : undefined;
}
