import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  configSource,
  configuredStore,
  loadConfig,
  OFFICE_CONFIG_PATH,
  resolveDataDir,
} from '../../src/config/index.js';
import { ConfigError } from '../../src/core/index.js';
import { resolveLineAllowlist, resolveLineAllowlists } from '../../src/lines/index.js';
import { createConfiguredRouter, RouterModelError } from '../../src/router/index.js';

const dir = mkdtempSync(join(tmpdir(), 'twinline-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'domain'));
writeFileSync(
  join(dir, 'domain', 'users.yaml'),
  'users:\n  - { tenant: t, user: ann, roles: [clerk], dataLevel: L1 }\n',
);
writeFileSync(join(dir, 'domain', 'tools.mjs'), 'export const tools = [];\n');

function config(body: string, name = 'twinline.config.yaml'): string {
  const file = join(dir, 'domain', name);
  writeFileSync(file, `domain: shop\ntools: ./tools.mjs\nusers: ./users.yaml\n${body}\n`);
  return file;
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('paths resolve against the config file, never the working directory', () => {
  it('store, data folder and router weights are relative to the file', () => {
    const c = loadConfig(
      config('dataDir: ./var\nstore: { sqlite: ./db/shop.sqlite }\nrouter: { weights: ./w.json }'),
      {
        env: {},
      },
    );
    expect(c.dataDir).toBe(join(dir, 'domain', 'var'));
    expect(c.store.sqliteFile).toBe(join(dir, 'domain', 'db', 'shop.sqlite'));
    expect(c.router?.weights).toBe(join(dir, 'domain', 'w.json'));
  });

  it('the data folder: --data-dir, then TWINLINE_HOME, then dataDir, then .twinline beside the file', () => {
    const file = config('dataDir: ./var');
    const base = { configFile: file, builtin: false, cwd: '/somewhere/else' } as const;
    expect(
      resolveDataDir({ ...base, flag: 'flag', env: { TWINLINE_HOME: '/home' }, configured: '/cfg' }),
    ).toBe('/somewhere/else/flag');
    expect(resolveDataDir({ ...base, env: { TWINLINE_HOME: '/home' }, configured: '/cfg' })).toBe('/home');
    expect(resolveDataDir({ ...base, env: {}, configured: '/cfg' })).toBe('/cfg');
    expect(resolveDataDir({ ...base, env: {} })).toBe(join(dir, 'domain', '.twinline'));
    // the built-in sample lives inside the package: its data goes to the working directory
    expect(resolveDataDir({ configFile: OFFICE_CONFIG_PATH, builtin: true, cwd: '/w', env: {} })).toBe(
      '/w/.twinline',
    );
  });

  it('the store is the data folder’s twinline.sqlite unless the file or TWINLINE_DATABASE_URL says otherwise', () => {
    const c = loadConfig(config(''), { env: {} });
    expect(configuredStore(c, {})).toEqual({
      sqliteFile: join(dir, 'domain', '.twinline', 'twinline.sqlite'),
    });
    expect(configuredStore(c, { TWINLINE_DATABASE_URL: 'postgres://x/y' })).toEqual({
      url: 'postgres://x/y',
    });
    // the same database whatever the working directory
    const elsewhere = process.cwd();
    try {
      process.chdir(tmpdir());
      expect(
        configuredStore(loadConfig(join(dir, 'domain', 'twinline.config.yaml'), { env: {} }), {}),
      ).toEqual(configuredStore(c, {}));
    } finally {
      process.chdir(elsewhere);
    }
  });

  it('one rule picks the config on every door: --config, TWINLINE_CONFIG, ./twinline.config.yaml, the sample', () => {
    const here = join(dir, 'domain');
    expect(configSource('x.yaml', {}, here)).toEqual({ file: join(here, 'x.yaml'), via: '--config' });
    expect(configSource(undefined, { TWINLINE_CONFIG: '/c.yaml' }, here)).toEqual({
      file: '/c.yaml',
      via: 'TWINLINE_CONFIG',
    });
    expect(configSource(undefined, {}, here)).toEqual({
      file: join(here, 'twinline.config.yaml'),
      via: './twinline.config.yaml',
    });
    expect(configSource(undefined, {}, tmpdir())).toEqual({ file: undefined, via: 'built-in sample' });
  });
});

describe('a domain of its own: router, prompts, lines from config', () => {
  it('`router: {}` cannot mean anything and fails to load, naming the field and what to add', () => {
    const e = configError(() => loadConfig(config('router: {}', 'empty-router.yaml')));
    expect(e.message).toMatch(/router/);
    expect(e.message).toMatch(/rules.*presets.*weights/);
  });

  it('a rule needs exactly one of phrases or a pattern that compiles', () => {
    expect(
      configError(() => loadConfig(config('router: { rules: [{ id: r, line: deep }] }', 'r1.yaml'))).message,
    ).toMatch(/exactly one of `phrases` or `pattern`/);
    expect(
      configError(() =>
        loadConfig(config('router: { rules: [{ id: r, line: deep, pattern: "(" }] }', 'r2.yaml')),
      ).message,
    ).toMatch(/not a regular expression/);
  });

  it('no weights: rules only, said in a notice and on every decision; no rule decides → read-only', () => {
    const c = loadConfig(
      config(
        'router:\n  rules:\n    - { id: shop.refund, line: deep, phrases: [refund, 退款] }\n    - { id: shop.order-status, line: quick, phrases: [where is my order] }',
        'shop.yaml',
      ),
    );
    const router = createConfiguredRouter(c.router);
    expect(router.mode).toBe('rules-only');
    expect(router.notice).toMatch(/no trained model.*2 configured rule/);
    expect(router.route('refund 100 on order A-1001')).toMatchObject({
      target: 'deep',
      rule: 'shop.refund',
      routing: 'rules-only',
    });
    expect(router.route('请给订单 A-1001 退款')).toMatchObject({ target: 'deep', rule: 'shop.refund' });
    expect(router.route('Where is my order A-1001?')).toMatchObject({
      target: 'quick',
      rule: 'shop.order-status',
    });
    // whole words: a word that merely contains a phrase does not match
    expect(router.route('I was refunded yesterday')).toMatchObject({
      target: 'readonly_fallback',
      rule: null,
    });
    expect(router.route('hello there')).toMatchObject({ target: 'readonly_fallback', routing: 'rules-only' });
  });

  it('a named weights file that is missing stops start-up', () => {
    const c = loadConfig(config('router: { weights: ./missing.json }', 'w.yaml'));
    expect(() => createConfiguredRouter(c.router, 'w.yaml: router')).toThrow(RouterModelError);
    expect(() => createConfiguredRouter(c.router, 'w.yaml: router')).toThrow(/weights file does not exist/);
  });

  it('the office sample names its preset and weights in its own config: the classifier runs', () => {
    const office = loadConfig(OFFICE_CONFIG_PATH, { env: {} });
    expect(office.router).toMatchObject({ presets: ['office'] });
    expect(office.lines.retrieval).toBe('doc_search');
    expect(office.prompts?.quick).toMatch(/office assistant/);
    const router = createConfiguredRouter(office.router);
    expect(router.mode).toBe('classifier');
    expect(router.notice).toBeUndefined();
    expect(router.route('帮我把下午的会议推迟到四点').routing).toBeUndefined();
  });
});

describe('line allowlists: names, mcp__<server> and globs', () => {
  const names = [
    'order_lookup',
    'order_refund',
    'mcp__crm__find',
    'mcp__crm__update',
    'mcp__crmx__find',
    'doc_search',
  ];

  it.each([
    [['order_*'], ['order_lookup', 'order_refund']],
    [['mcp__crm'], ['mcp__crm__find', 'mcp__crm__update']],
    [['mcp__crm__f*'], ['mcp__crm__find']],
    [
      ['order_?ookup', 'doc_search'],
      ['order_lookup', 'doc_search'],
    ],
    [['*_find'], ['mcp__crm__find', 'mcp__crmx__find']],
  ])('%j → %j', (patterns, expected) => {
    expect(resolveLineAllowlist(patterns, names, 'lines.deep.allow')).toEqual(expected);
  });

  it('an entry that matches no tool fails, naming it', () => {
    const e = configError(() =>
      resolveLineAllowlist(['order_lookup', 'orders_*'], names, 'shop.yaml: lines.quick.allow'),
    );
    expect(e.message).toMatch(/shop\.yaml: lines\.quick\.allow: "orders_\*" matches no registered tool/);
  });

  it('the lines stay disjoint after expansion', () => {
    expect(() =>
      resolveLineAllowlists({ deep: ['order_*'], quick: ['order_lookup'] }, names, 'shop.yaml'),
    ).toThrow(/share order_lookup/);
  });
});
