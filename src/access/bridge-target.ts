/** The tool a `tool_call` bridge call targets, and the arguments it forwards. */
export function bridgeTargetOf(args: unknown): { name: string | undefined; args: unknown } {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const name = [a.name, a.tool_name, a.tool].find((v) => typeof v === 'string') as string | undefined;
  return { name, args: a.arguments ?? a.args ?? a.input ?? {} };
}
