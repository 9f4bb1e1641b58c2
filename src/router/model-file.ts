import { existsSync, readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { RouterModel } from './classifier.js';
import { RouterModelError } from './errors.js';
import { ROUTE_CLASSES } from './types.js';

/** On-disk form: typed arrays as base64 of little-endian float32, so the file stays small and loads fast. */
export interface RouterModelFile {
  version: 1;
  dim: number;
  classes: string[];
  temperature: number;
  bias: number[];
  weights: string;
  trainedOn?: Record<string, unknown>;
}

// Beside the module (src/router/ under tsx, dist/router/ where the build copies it), then from a
// bundle in dist/bundle/ in dist/router/model/, then the sources' copy through the package root.
const CANDIDATES = [
  new URL('./model/router-weights.json', import.meta.url),
  new URL('../router/model/router-weights.json', import.meta.url),
  new URL('../../src/router/model/router-weights.json', import.meta.url),
];

/** Path of the shipped weights file, or undefined when none is found. */
export function defaultModelPath(): string | undefined {
  for (const url of CANDIDATES) {
    const path = fileURLToPath(url);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** Turns the file form into the in-memory model, checking its shape. */
export function decodeRouterModel(file: RouterModelFile, where: string): RouterModel {
  if (file.version !== 1)
    throw new RouterModelError('router_model_version', `unsupported version ${file.version}`, { where });
  if (file.classes.join(',') !== ROUTE_CLASSES.join(',')) {
    throw new RouterModelError(
      'router_model_classes',
      `classes ${file.classes.join(',')} do not match ${ROUTE_CLASSES.join(',')}`,
      { where },
    );
  }
  const buf = Buffer.from(file.weights, 'base64');
  if (buf.byteLength !== file.dim * file.classes.length * 4) {
    throw new RouterModelError(
      'router_model_size',
      `weights hold ${buf.byteLength} bytes, expected ${file.dim * file.classes.length * 4}`,
      { where },
    );
  }
  let weights: Float32Array;
  if (endianness() === 'LE') {
    // copying into a fresh Uint8Array gives an aligned buffer to view as float32 in one step
    weights = new Float32Array(new Uint8Array(buf).buffer);
  } else {
    weights = new Float32Array(buf.byteLength / 4);
    for (let i = 0; i < weights.length; i++) weights[i] = buf.readFloatLE(i * 4);
  }
  return {
    version: 1,
    dim: file.dim,
    classes: file.classes,
    temperature: file.temperature,
    bias: Float32Array.from(file.bias),
    weights,
  };
}

/** Turns an in-memory model into its file form. */
export function encodeRouterModel(model: RouterModel, trainedOn?: Record<string, unknown>): RouterModelFile {
  const buf = Buffer.alloc(model.weights.length * 4);
  for (let i = 0; i < model.weights.length; i++) buf.writeFloatLE(model.weights[i]!, i * 4);
  return {
    version: 1,
    dim: model.dim,
    classes: [...model.classes],
    temperature: model.temperature,
    bias: Array.from(model.bias),
    weights: buf.toString('base64'),
    ...(trainedOn ? { trainedOn } : {}),
  };
}

/** Reads and decodes a weights file. */
export function readRouterModel(path: string): RouterModel {
  let file: RouterModelFile;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as RouterModelFile;
  } catch (err) {
    throw new RouterModelError(
      'router_model_unreadable',
      'cannot read router weights (run `npx tsx scripts/train-router.ts`?)',
      { where: path, cause: err },
    );
  }
  return decodeRouterModel(file, path);
}

let cached: RouterModel | undefined;

/** The shipped model, loaded on first use and kept for the life of the process. */
export function shippedRouterModel(): RouterModel {
  if (cached) return cached;
  const path = defaultModelPath();
  if (!path)
    throw new RouterModelError('router_model_missing', 'no router-weights.json shipped', {
      where: 'src/router/model/router-weights.json',
    });
  cached = readRouterModel(path);
  return cached;
}
