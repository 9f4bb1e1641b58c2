/** Invisible, encrypted and authenticated session watermarks (docs/gates.md, "Watermarks"). */
export { type Boundaries, findBoundaries, isJsonDocument } from './boundaries.js';
export {
  type DecodedWatermark,
  decodeWatermark,
  type EmbedOptions,
  embedWatermark,
  packWatermark,
  stripWatermark,
  unpackWatermark,
  WATERMARK_TOKEN_PREFIX,
  type Watermark,
  type WatermarkDecodeOptions,
  WatermarkError,
  type WatermarkKeyOptions,
  watermarkFrame,
  watermarkToken,
} from './codec.js';
export { type TenantWatermarkKeys, tenantWatermarkKeys } from './keys.js';
export { type WatermarkChannels, type WatermarkMode, watermarkModeFor } from './modes.js';
