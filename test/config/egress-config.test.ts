import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { egressSettings, loadConfig, loadWatermarkKey } from '../../src/config/index.js';
import { ConfigError } from '../../src/core/index.js';

const dir = mkdtempSync(join(tmpdir(), 'twinline-egress-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, 'users.yaml'),
  'users:\n  - { tenant: t1, user: ann, roles: [reader], dataLevel: L2 }\n',
);

function configWith(egress: string): string {
  const file = join(dir, `c-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    `tools: ./tools.ts\nusers: ./users.yaml\nstore: { sqlite: ${join(dir, 'db.sqlite')} }\n${egress}\n`,
  );
  return file;
}

function loadError(egress: string): ConfigError {
  try {
    loadConfig(configWith(egress));
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('the egress section of twinline.config.yaml', () => {
  it('loads and becomes the gate settings, with the key in the data folder', () => {
    const config = loadConfig(
      configWith(
        'egress: { internalDomains: [acme.example], stream: { holdBack: 64, maxHold: 256 } }\nwatermark: { channels: { stream-json: field } }',
      ),
    );
    const settings = egressSettings(config, {});
    expect(settings).toMatchObject({
      internalDomains: ['acme.example'],
      watermarkChannels: { default: 'text', channels: { 'stream-json': 'field' } },
      stream: { holdBack: 64, maxHold: 256 },
    });
    // the data folder beside the config (`.twinline`), whatever the store's location
    const keyFile = join(dir, '.twinline', 'watermark.key');
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(settings.watermarkKey);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    // Every process of the deployment signs alike; the environment wins.
    expect(egressSettings(config, {}).watermarkKey).toBe(settings.watermarkKey);
    expect(egressSettings(config, { TWINLINE_WATERMARK_KEY: 'k' }).watermarkKey).toBe('k');
    expect(loadWatermarkKey(keyFile, {})).toBe(settings.watermarkKey);
  });

  it('fails to load what cannot mean what it says, naming the field', () => {
    // A door that does not exist could never be switched: it fails to load.
    expect(loadError('watermark: { channels: { stream_json: off } }').message).toMatch(/watermark\.channels/);
    expect(loadError('egress: { stream: { holdBack: 400 } }').message).toMatch(
      /maxHold must be above holdBack/,
    );
    expect(loadError('egress: { internalDomains: ["not a domain"] }').message).toMatch(/internalDomains/);
    expect(loadError('egress: { watermark: false }').message).toMatch(/watermark/);
  });
});
