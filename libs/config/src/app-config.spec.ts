import { describe, expect, it } from '@jest/globals';
import { ConfigError, DEVELOPMENT_SESSION_SECRET, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge',
      redisUrl: 'redis://127.0.0.1:6379',
      sessionSecret: DEVELOPMENT_SESSION_SECRET,
      apiRateLimitPerDay: 1000,
      oauthRegistrationsPerHour: 500,
      signUpLimitPerHour: 20,
      migrateOnStart: true,
      modelGateway: { url: undefined, model: 'gpt-4o-mini', timeoutMs: 30000 },
      workerConcurrency: 8,
    });
    expect(config.modelGateway.organization).toBeUndefined();
    expect(config.modelGateway.project).toBeUndefined();
    expect(config.warnings).toEqual([expect.stringContaining('SESSION_SECRET is not set')]);
  });

  it('parses given values', () => {
    const config = loadConfig({
      PORT: '8080',
      API_RATE_LIMIT_PER_DAY: '5',
      OAUTH_REGISTRATIONS_PER_HOUR: '7',
      SIGN_UP_LIMIT_PER_HOUR: '3',
      MIGRATE_ON_START: 'false',
      SESSION_SECRET: 's'.repeat(40),
      MODEL_GATEWAY_URL: 'http://127.0.0.1:9999/v1',
      MODEL_TIMEOUT_MS: '2500',
      OPENAI_ORG_ID: 'org-abc',
      OPENAI_PROJECT_ID: 'proj_abc',
    });
    expect(config).toMatchObject({
      port: 8080,
      apiRateLimitPerDay: 5,
      signUpLimitPerHour: 3,
      oauthRegistrationsPerHour: 7,
      migrateOnStart: false,
      warnings: [],
    });
    expect(config.modelGateway).toMatchObject({
      url: 'http://127.0.0.1:9999/v1',
      timeoutMs: 2500,
      organization: 'org-abc',
      project: 'proj_abc',
    });
  });

  it.each([
    [{ PORT: '70000' }, /^Invalid configuration: PORT must not be greater than 65535$/],
    [{ PORT: 'abc' }, /^Invalid configuration: PORT must be an integer number$/],
    [
      { SIGN_UP_LIMIT_PER_HOUR: '0' },
      /^Invalid configuration: SIGN_UP_LIMIT_PER_HOUR must not be less than 1$/,
    ],
    [{ TRUST_PROXY: 'yes' }, /^Invalid configuration: TRUST_PROXY must be a boolean value$/],
    [{ REDIS_URL: 'localhost:6379' }, /^Invalid configuration: REDIS_URL must be a redis:\/\/ URL$/],
    [{ SESSION_SECRET: 'short' }, /^Invalid configuration: SESSION_SECRET must be at least 32 characters$/],
    [
      { MODEL_GATEWAY_URL: 'not a url' },
      /^Invalid configuration: MODEL_GATEWAY_URL must be an http\(s\) URL$/,
    ],
    [
      { NODE_ENV: 'production' },
      /^Invalid configuration: SESSION_SECRET is required when NODE_ENV=production$/,
    ],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('the open /metrics warning', () => {
  it('warns when the service listens beyond loopback without METRICS_TOKEN', () => {
    const open = loadConfig({ HOST: '0.0.0.0', SESSION_SECRET: 'x'.repeat(40) });
    expect(open.warnings).toEqual([expect.stringMatching(/^METRICS_TOKEN is not set while HOST=0\.0\.0\.0/)]);
    expect(
      loadConfig({ HOST: '0.0.0.0', METRICS_TOKEN: 'm'.repeat(20), SESSION_SECRET: 'x'.repeat(40) }).warnings,
    ).toEqual([]);
    expect(loadConfig({ SESSION_SECRET: 'x'.repeat(40) }).warnings).toEqual([]);
  });
});

describe('REDIS_PREFIX', () => {
  it.each(['tj', 'tj-prod.1', '{tj}', '{tj}-prod', 'app{tj}'])('accepts %s', (prefix) => {
    expect(loadConfig({ REDIS_PREFIX: prefix }).redisPrefix).toBe(prefix);
  });

  it.each(['{}', '{tj', 'tj}', '{a}{b}', 'tj:queues', 'x'.repeat(65)])('refuses %s', (prefix) => {
    expect(() => loadConfig({ REDIS_PREFIX: prefix })).toThrow(
      /^Invalid configuration: REDIS_PREFIX must be 1 to 64 letters, digits, _ \. or -, with at most one non-empty \{hash tag\}$/,
    );
  });

  it('reads AUDIT_SEED as an integer, and warns when it is set in production', () => {
    expect(loadConfig({}).auditSeed).toBeUndefined();
    expect(loadConfig({ AUDIT_SEED: '42' }).auditSeed).toBe(42);
    expect(() => loadConfig({ AUDIT_SEED: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ AUDIT_SEED: '-1' })).toThrow(ConfigError);
    const production = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      AUDIT_SEED: '1',
    });
    expect(production.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining('AUDIT_SEED is set')]),
    );
  });
});

describe('OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME and OTEL_TRACES_SAMPLER_ARG', () => {
  it('leaves tracing off unless an endpoint is set', () => {
    expect(loadConfig({}).telemetry).toEqual({
      endpoint: undefined,
      serviceName: undefined,
      sampleRatio: undefined,
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }).telemetry.endpoint).toBeUndefined();
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318', OTEL_SERVICE_NAME: 'judge-eu' })
        .telemetry,
    ).toEqual({ endpoint: 'http://localhost:4318', serviceName: 'judge-eu', sampleRatio: undefined });
  });

  it.each([
    ['0', 0],
    ['0.25', 0.25],
    ['1', 1],
  ])('takes the sampling ratio %s', (raw, ratio) => {
    expect(loadConfig({ OTEL_TRACES_SAMPLER_ARG: raw }).telemetry.sampleRatio).toBe(ratio);
  });

  it.each(['1.5', '-0.1', 'half', '1e-3'])('refuses the sampling ratio %j', (raw) => {
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: raw })).toThrow(
      /^Invalid configuration: OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1$/,
    );
  });

  it.each(['localhost:4318', 'grpc://collector:4317', 'not a url'])('refuses the endpoint %s', (url) => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: url })).toThrow(
      /^Invalid configuration: OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL$/,
    );
  });

  it('refuses a service name with spaces', () => {
    expect(() => loadConfig({ OTEL_SERVICE_NAME: 'ticket judge' })).toThrow(/OTEL_SERVICE_NAME/);
  });
});

describe('MODEL_PRICES', () => {
  it('ships no prices: unset or empty, no model has one', () => {
    expect(loadConfig({}).modelPrices).toEqual({});
    expect(loadConfig({ MODEL_PRICES: '' }).modelPrices).toEqual({});
    expect(loadConfig({ MODEL_PRICES: '{}' }).modelPrices).toEqual({});
  });

  it('reads each model id’s prices per million tokens', () => {
    const config = loadConfig({
      MODEL_PRICES: JSON.stringify({
        'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
        'free-model': { outputPerMTok: 0, inputPerMTok: 0 },
      }),
    });
    expect(config.modelPrices).toEqual({
      'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
      'free-model': { inputPerMTok: 0, outputPerMTok: 0 },
    });
  });

  it('keeps a model named __proto__ as a plain key', () => {
    const prices = loadConfig({
      MODEL_PRICES: '{"__proto__": {"inputPerMTok": 1, "outputPerMTok": 2}}',
    }).modelPrices;
    expect(Object.getPrototypeOf(prices)).toBe(Object.prototype);
    expect(Object.hasOwn(prices, '__proto__')).toBe(true);
  });

  it.each([
    ['not json', /^Invalid configuration: MODEL_PRICES must be JSON like \{"<modelId>"/],
    ['[1, 2]', /^Invalid configuration: MODEL_PRICES must be a JSON object like/],
    ['"gpt"', /^Invalid configuration: MODEL_PRICES must be a JSON object like/],
    ['null', /^Invalid configuration: MODEL_PRICES must be a JSON object like/],
    [
      '{"": {"inputPerMTok": 1, "outputPerMTok": 1}}',
      /^Invalid configuration: MODEL_PRICES has an empty model id$/,
    ],
    [
      '{"m": 3}',
      /^Invalid configuration: MODEL_PRICES has an invalid price for "m": it must be \{"inputPerMTok"/,
    ],
    ['{"m": {"inputPerMTok": 1}}', /has an invalid price for "m": it must be/],
    [
      '{"m": {"inputPerMTok": 1, "outputPerMTok": 1, "cachedPerMTok": 1}}',
      /has an invalid price for "m": it must be/,
    ],
    ['{"m": {"inputPerMTok": 1, "outPerMTok": 1}}', /has an invalid price for "m": it must be/],
    [
      '{"m": {"inputPerMTok": -0.5, "outputPerMTok": 1}}',
      /^Invalid configuration: MODEL_PRICES has an invalid price for "m": inputPerMTok must be a finite number of at least 0 \(USD per million tokens\)$/,
    ],
    [
      '{"m": {"inputPerMTok": 1, "outputPerMTok": "2"}}',
      /"m": outputPerMTok must be a finite number of at least 0/,
    ],
    [
      '{"m": {"inputPerMTok": 1e999, "outputPerMTok": 1}}',
      /"m": inputPerMTok must be a finite number of at least 0/,
    ],
    [
      '{"m": {"inputPerMTok": 1, "outputPerMTok": null}}',
      /"m": outputPerMTok must be a finite number of at least 0/,
    ],
  ])('refuses %s with one line naming the variable', (value, message) => {
    expect(() => loadConfig({ MODEL_PRICES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ MODEL_PRICES: value })).toThrow(message);
  });
});
