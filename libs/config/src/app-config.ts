import path from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Environment, OPTIONAL_VARIABLES } from './environment.js';
import { parseModelPrices, type ModelPriceTable } from './model-prices.js';

export const DEVELOPMENT_SESSION_SECRET = 'development-session-secret-change-me-0123456789';

export interface AppConfig {
  nodeEnv: 'development' | 'test' | 'production';
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  sessionSecret: string;
  sessionTtlHours: number;
  apiRateLimitPerDay: number;
  /** Dynamic client registrations per hour, all addresses together (OAUTH_REGISTRATIONS_PER_HOUR). */
  oauthRegistrationsPerHour: number;
  /**
   * Fetch OAuth client ID metadata documents from loopback and private addresses: outside production
   * only (tests serve documents on 127.0.0.1), never in production, where no setting allows it.
   */
  oauthMetadataAllowPrivateUrls: boolean;
  signUpLimitPerHour: number;
  migrateOnStart: boolean;
  logLevel: string;
  bodyLimitBytes: number;
  /** Absolute path of the built web app. */
  webRoot: string;
  trustProxy: boolean;
  /** The OpenAI-compatible gateway (MODEL_GATEWAY_*, MODEL_NAME, MODEL_TIMEOUT_MS, OPENAI_ORG_ID, OPENAI_PROJECT_ID). */
  modelGateway: {
    url?: string;
    apiKey?: string;
    organization?: string;
    project?: string;
    model: string;
    timeoutMs: number;
  };
  /** USD per million tokens per model id (MODEL_PRICES); empty when unset: no price ships. */
  modelPrices: ModelPriceTable;
  workerHealthPort?: number;
  workerConcurrency: number;
  workerName: string;
  workerLockMs: number;
  workerSweepMs: number;
  shadow: { concurrency: number; sampleMs: number };
  calibrationRefitCheckMs: number;
  alertCheckMs: number;
  webhooks: { maxAttempts: number; backoffMs: number; claimMs: number; allowPrivateUrls: boolean };
  adminToken?: string;
  adminWriteToken?: string;
  metricsToken?: string;
  /** Seeds the audit draw (AUDIT_SEED), for tests; unset: unpredictable. */
  auditSeed?: number;
  /** Tracing (OTEL_*): off unless an OTLP endpoint is set. */
  telemetry: TelemetryConfig;
  /** The public origin, when configured (see PUBLIC_URL). */
  publicUrl?: string;
  /** Warnings to log once a logger exists (for example the development session secret). */
  warnings: string[];
}

export interface TelemetryConfig {
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); unset: tracing is off. */
  endpoint?: string;
  /** OTEL_SERVICE_NAME; unset: each app names itself. */
  serviceName?: string;
  /** OTEL_TRACES_SAMPLER_ARG: the share of arriving work traced; unset: all of it. */
  sampleRatio?: number;
}

export class ConfigError extends Error {}

/** Type constraints first, so `PORT=abc` reads "must be an integer number", not a range error. */
const CONSTRAINT_PRIORITY = ['isInt', 'isBoolean', 'matches', 'isIn', 'isUrl', 'isString'];

function firstReason(constraints: Record<string, string>): string {
  const key = CONSTRAINT_PRIORITY.find((name) => name in constraints) ?? Object.keys(constraints)[0];
  return key ? constraints[key] : 'is invalid';
}

/**
 * Parses and validates the environment. Throws a ConfigError whose message is one line naming
 * the first offending variable, so a misconfigured process stops with a clear reason.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new Environment());
  const raw: Record<string, string> = {};
  for (const key of [...known, ...OPTIONAL_VARIABLES]) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = plainToInstance(Environment, raw);
  const errors = validateSync(parsed, { skipMissingProperties: false });
  if (errors.length > 0) {
    const first = errors[0];
    const reason = firstReason(first.constraints ?? {});
    throw new ConfigError(
      `Invalid configuration: ${first.property} ${reason.replace(`${first.property} `, '')}`,
    );
  }
  const warnings: string[] = [];
  let sessionSecret = parsed.SESSION_SECRET;
  if (!sessionSecret) {
    if (parsed.NODE_ENV === 'production') {
      throw new ConfigError('Invalid configuration: SESSION_SECRET is required when NODE_ENV=production');
    }
    sessionSecret = DEVELOPMENT_SESSION_SECRET;
    warnings.push('SESSION_SECRET is not set: using the development default (never do this in production)');
  }
  if (!parsed.METRICS_TOKEN && !['127.0.0.1', '::1', 'localhost'].includes(parsed.HOST)) {
    warnings.push(
      `METRICS_TOKEN is not set while HOST=${parsed.HOST}: /metrics is open to anyone who can reach the port; set it, or keep the port private`,
    );
  }
  if (!parsed.PUBLIC_URL && parsed.NODE_ENV === 'production') {
    warnings.push(
      'PUBLIC_URL is not set: the OAuth issuer and the MCP resource follow each request’s Host header; set it to the public origin',
    );
  }
  if (parsed.AUDIT_SEED !== undefined && parsed.NODE_ENV === 'production') {
    warnings.push(
      'AUDIT_SEED is set: which evaluations are selected for audit can be predicted; unset it outside tests',
    );
  }
  return {
    nodeEnv: parsed.NODE_ENV as AppConfig['nodeEnv'],
    port: parsed.PORT,
    host: parsed.HOST,
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    redisPrefix: parsed.REDIS_PREFIX,
    sessionSecret,
    sessionTtlHours: parsed.SESSION_TTL_HOURS,
    apiRateLimitPerDay: parsed.API_RATE_LIMIT_PER_DAY,
    oauthRegistrationsPerHour: parsed.OAUTH_REGISTRATIONS_PER_HOUR,
    oauthMetadataAllowPrivateUrls: parsed.NODE_ENV !== 'production',
    signUpLimitPerHour: parsed.SIGN_UP_LIMIT_PER_HOUR,
    migrateOnStart: parsed.MIGRATE_ON_START,
    logLevel: parsed.LOG_LEVEL,
    bodyLimitBytes: parsed.BODY_LIMIT_BYTES,
    webRoot: path.resolve(parsed.WEB_ROOT),
    trustProxy: parsed.TRUST_PROXY,
    modelGateway: {
      url: parsed.MODEL_GATEWAY_URL,
      apiKey: parsed.MODEL_GATEWAY_API_KEY,
      organization: parsed.OPENAI_ORG_ID,
      project: parsed.OPENAI_PROJECT_ID,
      model: parsed.MODEL_NAME,
      timeoutMs: parsed.MODEL_TIMEOUT_MS,
    },
    modelPrices: modelPricesOf(parsed.MODEL_PRICES),
    workerHealthPort: parsed.WORKER_HEALTH_PORT,
    workerConcurrency: parsed.WORKER_CONCURRENCY,
    workerName: parsed.WORKER_NAME,
    workerLockMs: parsed.WORKER_LOCK_MS,
    workerSweepMs: parsed.WORKER_SWEEP_MS,
    shadow: { concurrency: parsed.SHADOW_CONCURRENCY, sampleMs: parsed.SHADOW_SAMPLE_MS },
    calibrationRefitCheckMs: parsed.CALIBRATION_REFIT_CHECK_MS,
    alertCheckMs: parsed.ALERT_CHECK_MS,
    webhooks: {
      maxAttempts: parsed.WEBHOOK_MAX_ATTEMPTS,
      backoffMs: parsed.WEBHOOK_BACKOFF_MS,
      claimMs: parsed.WEBHOOK_CLAIM_MS,
      // Development and test talk to receivers on localhost; production refuses private targets.
      allowPrivateUrls: parsed.WEBHOOK_ALLOW_PRIVATE_URLS || parsed.NODE_ENV !== 'production',
    },
    adminToken: parsed.ADMIN_TOKEN,
    adminWriteToken: parsed.ADMIN_WRITE_TOKEN,
    metricsToken: parsed.METRICS_TOKEN,
    publicUrl: parsed.PUBLIC_URL,
    auditSeed: parsed.AUDIT_SEED,
    telemetry: {
      endpoint: parsed.OTEL_EXPORTER_OTLP_ENDPOINT,
      serviceName: parsed.OTEL_SERVICE_NAME,
      sampleRatio: parsed.OTEL_TRACES_SAMPLER_ARG,
    },
    warnings,
  };
}

/** MODEL_PRICES as validated above; unset: no model has a price. */
function modelPricesOf(text: string | undefined): ModelPriceTable {
  if (text === undefined) return {};
  const parsed = parseModelPrices(text);
  if (!parsed.ok) throw new ConfigError(`Invalid configuration: MODEL_PRICES ${parsed.reason}`);
  return parsed.prices;
}

/** Loads the configuration or ends the process with one line on stderr. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
