import ts from 'typescript';

/** What an entry point exports: each name, and whether it exists at run time. */
export type ExportKind = 'value' | 'type';

/** The names a built declaration file exports (values and types), as the compiler resolves them. */
export function declaredExports(dts: string): Map<string, ExportKind> {
  const program = ts.createProgram([dts], {
    module: ts.ModuleKind.NodeNext,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(dts);
  if (!source) throw new Error(`no declaration file ${dts}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${dts} is not a module`);
  const out = new Map<string, ExportKind>();
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    out.set(symbol.name, target.flags & ts.SymbolFlags.Value ? 'value' : 'type');
  }
  return out;
}
