/**
 * How a channel carries the session watermark: `text` — invisible symbols in free text (a JSON
 * answer still gets none: it carries the token in a field instead); `field` — only the
 * `watermark` token beside the answer; `off` — none.
 */
export type WatermarkMode = 'text' | 'field' | 'off';

/** The per-channel switch (`watermark` in twinline.config.yaml). */
export interface WatermarkChannels {
  /** Mode of a channel not listed (default `text`). */
  readonly default?: WatermarkMode;
  /** Mode per channel name (`api`, `cli`, `stream-json`, …). */
  readonly channels?: Readonly<Partial<Record<string, WatermarkMode>>>;
}

/** The mode a channel's answers are watermarked in. */
export function watermarkModeFor(settings: WatermarkChannels | undefined, channel: string): WatermarkMode {
  const own = settings?.channels ? Object.hasOwn(settings.channels, channel) : false;
  return (own ? settings?.channels?.[channel] : undefined) ?? settings?.default ?? 'text';
}
