import type { ToolSpec } from '../tools/index.js';

/**
 * The high-risk tools a user's own request declares, for the intent slot of a session profile:
 * a tool whose configured intent phrases the request contains.
 */
export function declaredByRequest(request: string, tools: readonly ToolSpec[]): string[] {
  const text = request.toLowerCase();
  return tools
    .filter((t) => (t.riskLevel === 'high' || t.riskLevel === 'critical') && t.intentKeywords?.length)
    .filter((t) => t.intentKeywords!.some((w) => text.includes(w.toLowerCase())))
    .map((t) => t.name);
}
