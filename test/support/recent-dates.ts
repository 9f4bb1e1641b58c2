/**
 * Date ranges near today, so tool arguments pass the office policy's parameter gate (sales and
 * attendance may look back a month or a quarter) whatever day the suite runs on.
 */
export function isoDay(offsetDays: number, from: Date = new Date()): string {
  return new Date(from.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** The last four weeks, up to today. */
export const RECENT = Object.freeze({ from: isoDay(-28), to: isoDay(0) });
