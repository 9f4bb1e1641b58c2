/** Invisible, authenticated session watermarks. */
export {
  type DecodedWatermark,
  decodeWatermark,
  type EmbedOptions,
  embedWatermark,
  packWatermark,
  stripWatermark,
  unpackWatermark,
  type Watermark,
  WatermarkError,
  type WatermarkKeyOptions,
  watermarkFrame,
} from './codec.js';
