/**
 * The learned injection scorer's model: one logistic regression per channel over the hashed
 * window features of `windows.ts`, shipped as data (`model/injection-model.bin`, written by
 * scripts/train-injection.ts) and loaded once, lazily.
 *
 * File layout (little-endian): "TWIJ", u32 version (2), u32 feature bits, u32 channel count,
 * u32 feature fingerprint (`featureFingerprint`: the cues and the concept lexicon the weights
 * were trained on), then per channel in CHANNELS order: f32 bias, f32 scale, int8[2^bits]
 * weights (weight = int8 × scale). A model whose fingerprint is not this code's was trained on
 * other features, and its weights would mean nothing here: it fails to load. Quantised to int8 the file is a quarter of float32 (512 KiB for two channels);
 * a decoded model keeps the int8 weights as views of the file's bytes and applies the scale to
 * sums, so loading is one read and no conversion.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TwinlineError } from '../../../core/index.js';
import { CHANNELS, type Channel } from '../combine.js';
import { CONCEPT_LEXICON } from './concept-lexicon.js';
import { CUES } from './cues.js';
import { FEATURE_BITS } from './occurrences.js';

/** The shipped injection model is missing, unreadable or not one this code understands. */
export class InjectionModelError extends TwinlineError {}

export interface ChannelModel {
  bias: number;
  /** Each weight is `weights[i] × scale` (a trained float model has scale 1). */
  weights: Float32Array | Int8Array;
  scale: number;
}

export interface InjectionModel {
  readonly bits: number;
  readonly channels: Readonly<Record<Channel, ChannelModel>>;
}

const MAGIC = 0x4a495754; // "TWIJ" read as little-endian u32
const VERSION = 2;
const HEADER = 20;

let fingerprint: number | undefined;

/**
 * A 32-bit hash of what the named and concept features are: every cue's id and pattern and every
 * class and entry of the concept lexicon. A change to any of them changes what the weights mean.
 */
export function featureFingerprint(): number {
  if (fingerprint !== undefined) return fingerprint;
  let h = 0x811c9dc5;
  const add = (s: string) => {
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0x1f, 0x01000193);
  };
  for (const cue of CUES) {
    add(cue.id);
    add(cue.pattern.source);
  }
  for (const [name, { en, zh }] of Object.entries(CONCEPT_LEXICON)) {
    add(name);
    for (const e of en) add(e);
    for (const e of zh) add(e);
  }
  fingerprint = h >>> 0;
  return fingerprint;
}

/** Encodes a model; weights are quantised to int8 per channel. */
export function encodeInjectionModel(model: InjectionModel): Uint8Array {
  const dim = 1 << model.bits;
  const buf = Buffer.alloc(HEADER + CHANNELS.length * (8 + dim));
  buf.writeUInt32LE(MAGIC, 0);
  buf.writeUInt32LE(VERSION, 4);
  buf.writeUInt32LE(model.bits, 8);
  buf.writeUInt32LE(CHANNELS.length, 12);
  buf.writeUInt32LE(featureFingerprint(), 16);
  let at = HEADER;
  for (const ch of CHANNELS) {
    const { bias, weights: raw, scale: given } = model.channels[ch];
    const weights = Float32Array.from(raw, (w) => w * given);
    let max = 0;
    for (let i = 0; i < dim; i++) max = Math.max(max, Math.abs(weights[i]!));
    const scale = max === 0 ? 1 : max / 127;
    buf.writeFloatLE(bias, at);
    buf.writeFloatLE(scale, at + 4);
    at += 8;
    for (let i = 0; i < dim; i++)
      buf.writeInt8(Math.max(-127, Math.min(127, Math.round(weights[i]! / scale))), at + i);
    at += dim;
  }
  return buf;
}

/** Decodes a model file, checking its shape. */
export function decodeInjectionModel(bytes: Uint8Array, where: string): InjectionModel {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (code: string, message: string): never => {
    throw new InjectionModelError(code, message, { where });
  };
  if (bytes.byteLength < HEADER || view.getUint32(0, true) !== MAGIC)
    fail('injection_model_format', 'not an injection model file');
  if (view.getUint32(4, true) !== VERSION)
    fail(
      'injection_model_version',
      `unsupported version ${view.getUint32(4, true)} (this code reads version ${VERSION}; retrain with scripts/train-injection.ts)`,
    );
  const bits = view.getUint32(8, true);
  if (bits !== FEATURE_BITS)
    fail('injection_model_bits', `model has ${bits} feature bits, this code hashes into ${FEATURE_BITS}`);
  if (view.getUint32(12, true) !== CHANNELS.length)
    fail('injection_model_channels', 'channel count does not match');
  const trainedOn = view.getUint32(16, true);
  if (trainedOn !== featureFingerprint())
    fail(
      'injection_model_features',
      `model was trained on other cues or concept lexicon (feature fingerprint ${trainedOn.toString(16)}, this code ${featureFingerprint().toString(16)}); retrain with scripts/train-injection.ts`,
    );
  const dim = 1 << bits;
  if (bytes.byteLength !== HEADER + CHANNELS.length * (8 + dim))
    fail('injection_model_size', `file holds ${bytes.byteLength} bytes`);
  const channels = {} as Record<Channel, ChannelModel>;
  let at = HEADER;
  for (const ch of CHANNELS) {
    const bias = view.getFloat32(at, true);
    const scale = view.getFloat32(at + 4, true);
    at += 8;
    channels[ch] = { bias, scale, weights: new Int8Array(bytes.buffer, bytes.byteOffset + at, dim) };
    at += dim;
  }
  return { bits, channels };
}

export const INJECTION_MODEL_FILE = 'injection-model.bin';

// In src/gates/input/model/: beside this module's folder when run from src/ (tsx) or from
// dist/gates/input/ (the build copies the file there); from a bundle in dist/bundle/, in
// dist/gates/input/model/. Failing those (a build that did not copy), the sources' copy.
const CANDIDATES = [
  new URL(`../model/${INJECTION_MODEL_FILE}`, import.meta.url),
  new URL(`../gates/input/model/${INJECTION_MODEL_FILE}`, import.meta.url),
  new URL(`../../../../src/gates/input/model/${INJECTION_MODEL_FILE}`, import.meta.url),
  new URL(`../../src/gates/input/model/${INJECTION_MODEL_FILE}`, import.meta.url),
];

/** Path of the shipped model file, or undefined when none is found. */
export function defaultInjectionModelPath(): string | undefined {
  for (const url of CANDIDATES) {
    const path = fileURLToPath(url);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** Reads and decodes a model file. */
export function readInjectionModel(path: string): InjectionModel {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new InjectionModelError(
      'injection_model_unreadable',
      'cannot read the injection model (run `npx tsx scripts/train-injection.ts`?)',
      {
        where: path,
        cause: err,
      },
    );
  }
  return decodeInjectionModel(bytes, path);
}

let cached: InjectionModel | undefined;

/** The shipped model, loaded on first use and kept for the life of the process. */
export function shippedInjectionModel(): InjectionModel {
  if (cached) return cached;
  const path = defaultInjectionModelPath();
  if (!path)
    throw new InjectionModelError('injection_model_missing', `no ${INJECTION_MODEL_FILE} shipped`, {
      where: `src/gates/input/model/${INJECTION_MODEL_FILE}`,
    });
  cached = readInjectionModel(path);
  return cached;
}
