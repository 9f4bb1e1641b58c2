/** Loads an ES module by specifier: a package name or a file URL. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

let importer: ModuleImporter = (specifier) => import(specifier);

/**
 * `import()` of a module that is not part of Twinline's own code: an npm package loaded only when
 * needed (database drivers, the model SDK, MCP, the sandbox) or a user's tools module. Every such
 * load goes through here, so a host that cannot run `import()` itself can supply it: the
 * code-cached one-shot CLI (dist/bundle/one-shot.cjs, compiled with `vm.Script`) cannot on Node
 * 20, whose V8 code cache drops the dynamic-import callback.
 */
export function importExternal<T>(specifier: string): Promise<T> {
  return importer(specifier) as Promise<T>;
}

/** Replaces how `importExternal` loads modules (see there). */
export function setExternalImporter(next: ModuleImporter): void {
  importer = next;
}
