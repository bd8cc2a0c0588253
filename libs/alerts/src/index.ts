export { AlertsModule } from './alerts.module.js';
export { AlertService, ALERTS_PAGE_SIZE } from './alert.service.js';
export { AlertMonitor, type AlertCheckResult } from './alert-monitor.js';
export { toAlertView, type AlertView } from './alert.views.js';
