import type { ToolSpec } from '../tools/index.js';

/**
 * The names a catalogue holds now, as a set: a tool registered after the gateway was built is in
 * it too (the library's registry is open to the host until its first call).
 */
export class RegisteredNames implements ReadonlySet<string> {
  readonly #catalog: { get(name: string): ToolSpec | undefined; list(): readonly ToolSpec[] };

  constructor(catalog: { get(name: string): ToolSpec | undefined; list(): readonly ToolSpec[] }) {
    this.#catalog = catalog;
  }

  has(name: string): boolean {
    return this.#catalog.get(name) !== undefined;
  }

  get size(): number {
    return this.#catalog.list().length;
  }

  forEach(fn: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const name of this) fn.call(thisArg, name, name, this);
  }

  *keys(): SetIterator<string> {
    for (const t of this.#catalog.list()) yield t.name;
  }

  values(): SetIterator<string> {
    return this.keys();
  }

  *entries(): SetIterator<[string, string]> {
    for (const name of this) yield [name, name];
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.keys();
  }
}
