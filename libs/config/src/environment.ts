import os from 'node:os';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
} from 'class-validator';
import { ModelPricesFormat } from './model-prices.js';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toDecimal = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) => {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
};

/** Environment variables as they arrive; validated once at boot. */
export class Environment {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /**
   * The interface the API (and a worker's health server) listen on: loopback by default, so a
   * development machine does not expose the service; the container image sets 0.0.0.0.
   */
  @IsString()
  @MinLength(1)
  HOST = '127.0.0.1';

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge';

  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * Namespace of every Redis key (counters and queues), so several deployments can share one Redis.
   * It may hold one hash tag (`{tj}`) for a managed Redis that refuses scripts spanning hash slots.
   */
  @Matches(/^(?=.{1,64}$)[A-Za-z0-9_.-]*(\{[A-Za-z0-9_.-]+\})?[A-Za-z0-9_.-]*$/, {
    message: 'must be 1 to 64 letters, digits, _ . or -, with at most one non-empty {hash tag}',
  })
  REDIS_PREFIX = 'tj';

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  SESSION_SECRET?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  SESSION_TTL_HOURS = 24 * 7;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  API_RATE_LIMIT_PER_DAY = 1000;

  /** Sign-up attempts (created or 409) per client IP per hour: each costs an argon2 hash. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SIGN_UP_LIMIT_PER_HOUR = 20;

  @Transform(toBool)
  @IsBoolean()
  MIGRATE_ON_START = true;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Transform(toInt)
  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES = 1024 * 1024;

  /** The built web app (`npm run build:web`), served at `/`; relative paths are from the working directory. */
  @IsString()
  @MinLength(1)
  WEB_ROOT = 'dist/web';

  /**
   * Client registrations per hour across all addresses: registration is open, and the per-address
   * limit alone lets a few dozen addresses fill the clients table.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  OAUTH_REGISTRATIONS_PER_HOUR = 500;

  /** Trust X-Forwarded-* (client IP for sign-in throttling) only behind a proxy that sets them. */
  @Transform(toBool)
  @IsBoolean()
  TRUST_PROXY = false;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  MODEL_GATEWAY_URL?: string;

  @IsOptional()
  @IsString()
  MODEL_GATEWAY_API_KEY?: string;

  /** Sent as `OpenAI-Organization` with every model call: the OpenAI organization billed for it. */
  @IsOptional()
  @IsString()
  OPENAI_ORG_ID?: string;

  /** Sent as `OpenAI-Project` with every model call: the OpenAI project billed for it. */
  @IsOptional()
  @IsString()
  OPENAI_PROJECT_ID?: string;

  @IsString()
  @MinLength(1)
  MODEL_NAME = 'gpt-4o-mini';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  MODEL_TIMEOUT_MS = 30000;

  /**
   * USD per million input and output tokens, per model id as the gateway reports it (JSON). The
   * project ships no prices: a model without one has an unknown cost; local-lexical-1 costs 0.
   */
  @IsOptional()
  @Validate(ModelPricesFormat)
  MODEL_PRICES?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_HEALTH_PORT?: number;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  WORKER_CONCURRENCY = 8;

  /** The worker's name on every job it takes (BullMQ's `processedBy`, shown in Bull Board) and in its logs. */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  WORKER_NAME = `${os.hostname()}:${process.pid}`;

  /** How often the worker looks for work accepted while Redis was away (and how old it must be, twice this). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  WORKER_SWEEP_MS = 15_000;

  /** Shadow judgments one worker process runs at once, apart from WORKER_CONCURRENCY (docs/shadow-runs.md). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  SHADOW_CONCURRENCY = 2;

  /** How often the worker draws active shadow runs' samples from the live evaluations since the last draw. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  SHADOW_SAMPLE_MS = 5_000;

  /**
   * How often the worker looks for packs whose calibration maps are due a refit (20 labels since the
   * last fit, or a day-old fit and any label since; docs/quality.md).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  CALIBRATION_REFIT_CHECK_MS = 300_000;

  /** How often the worker checks every pack's quality alert rules (docs/alerts.md). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  ALERT_CHECK_MS = 300_000;

  /** Completion deliveries: attempts in all (the first included) and the first retry's delay (doubling, with jitter). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(50)
  WEBHOOK_MAX_ATTEMPTS = 8;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_BACKOFF_MS = 680_000;

  /**
   * How long a delivery attempt's claim lasts unless renewed: the request's 10 s timeout and time to
   * record it. The attempt renews it while it runs; tests shorten it to make it lapse.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  WEBHOOK_CLAIM_MS = 15_000;

  /** Allow completion URLs on loopback, private, link-local and metadata addresses in production. */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  /** Required as a bearer token by `/metrics` (API and worker health port) when set; unset: open. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  METRICS_TOKEN?: string;

  /** Opens Bull Board at /admin/queues, read-only, to whoever presents it; unset: no board. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  /** Also opens the board, with its retry, promote, clean and remove actions; unset: read-only. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  ADMIN_WRITE_TOKEN?: string;

  /**
   * The service's public origin (`https://judge.example.com`): the OAuth issuer and the MCP resource
   * are derived from it. Unset: from each request's protocol and Host (fine on localhost).
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/?#\s]+$/, {
    message: 'must be an http(s) origin without a path, like https://judge.example.com',
  })
  PUBLIC_URL?: string;

  /**
   * Seeds the audit draw's random numbers, a deterministic sequence per process, so tests know
   * which evaluations are selected. Unset (always in production): unpredictable numbers.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(4_294_967_295)
  AUDIT_SEED?: number;

  /**
   * OTLP/HTTP base URL of a trace collector (`http://localhost:4318`); traces go to `/v1/traces`
   * under it. Unset: no tracing SDK is loaded at all (docs/operations.md, "Traces").
   */
  @IsOptional()
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    { message: 'must be an http(s) URL' },
  )
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The service name on every span; unset: ticket-judge-api or ticket-judge-worker. */
  @IsOptional()
  @IsString()
  @Matches(/^[\w.-]{1,64}$/, { message: 'must be 1 to 64 letters, digits, _ . or -' })
  OTEL_SERVICE_NAME?: string;

  /**
   * The share of arriving work (requests, jobs) that starts a trace, from 0 to 1 (the standard
   * variable's argument, read as `parentbased_traceidratio` would; OTEL_TRACES_SAMPLER itself is
   * not read). Unset: 1, every judgment traced.
   */
  @IsOptional()
  @Transform(toDecimal)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number from 0 to 1' })
  @Min(0, { message: 'must be a number from 0 to 1' })
  @Max(1, { message: 'must be a number from 0 to 1' })
  OTEL_TRACES_SAMPLER_ARG?: number;

  /** How long a worker's job lock lasts; a killed worker's jobs are retried after about this long. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  WORKER_LOCK_MS = 30_000;
}

/** The variables without a default, which `new Environment()` does not list. */
export const OPTIONAL_VARIABLES = [
  'SESSION_SECRET',
  'MODEL_GATEWAY_URL',
  'MODEL_GATEWAY_API_KEY',
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'MODEL_PRICES',
  'WORKER_HEALTH_PORT',
  'ADMIN_TOKEN',
  'ADMIN_WRITE_TOKEN',
  'METRICS_TOKEN',
  'PUBLIC_URL',
  'AUDIT_SEED',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_SERVICE_NAME',
  'OTEL_TRACES_SAMPLER_ARG',
] as const;
