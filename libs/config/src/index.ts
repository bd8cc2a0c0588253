export {
  loadConfig,
  loadConfigOrExit,
  ConfigError,
  DEVELOPMENT_SESSION_SECRET,
  type AppConfig,
  type TelemetryConfig,
} from './app-config.js';
export { ConfigModule, APP_CONFIG } from './config.module.js';
export { logOptions, serializeError, describeStatement, REDACTED_LOG_PATHS } from './log-options.js';
export { describeListenError } from './listen-error.js';
export { withQuietBoot, BOOT_DETAIL_CONTEXTS } from './quiet-boot.js';
