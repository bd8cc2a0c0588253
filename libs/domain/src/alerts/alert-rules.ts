/** The quality alert rules (docs/alerts.md); each is on by default with the thresholds below. */
export const ALERT_RULES = [
  'agreement_drift',
  'answer_shift',
  'review_share_jump',
  'gateway_failure_rate',
] as const;
export type AlertRule = (typeof ALERT_RULES)[number];

export const ALERT_STATUSES = ['open', 'acknowledged', 'closed'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** The recent window of the agreement, answer and review-share rules, and the baseline before it. */
export const RECENT_DAYS = 7;
export const BASELINE_DAYS = 28;
/** The gateway failure rule's window. */
export const GATEWAY_WINDOW_MINUTES = 15;
/** Added to every answer category's count in both windows before the PSI, so an empty bin has a log. */
export const PSI_SMOOTHING = 0.5;
/** Example evaluation ids an alert links to. */
export const ALERT_EXAMPLES = 5;

export interface AgreementDriftSettings {
  enabled: boolean;
  /** How far below the baseline agreement the recent upper bound must fall (0..1). */
  margin: number;
  /** Labels needed in each window before the rule says anything. */
  minLabels: number;
  /** One-sided confidence of the upper bound on recent agreement. */
  confidence: number;
}

export interface AnswerShiftSettings {
  enabled: boolean;
  /** PSI above which the answers have shifted. */
  psiThreshold: number;
  /** Answers to the question needed in each window. */
  minCount: number;
}

export interface ReviewShareJumpSettings {
  enabled: boolean;
  /** The least rise of the review share (recent − baseline, 0..1) that counts. */
  minJump: number;
  /** Evaluations needed in each window. */
  minCount: number;
  /** One-sided confidence of the two-proportion test. */
  confidence: number;
}

export interface GatewayFailureRateSettings {
  enabled: boolean;
  /** Share of the window's evaluations with a gateway failure above which the rule fires. */
  threshold: number;
  /** Evaluations needed in the window. */
  minCount: number;
}

export interface AlertRuleSettings {
  agreementDrift: AgreementDriftSettings;
  answerShift: AnswerShiftSettings;
  reviewShareJump: ReviewShareJumpSettings;
  gatewayFailureRate: GatewayFailureRateSettings;
}

export const DEFAULT_ALERT_RULES: AlertRuleSettings = {
  agreementDrift: { enabled: true, margin: 0.1, minLabels: 30, confidence: 0.95 },
  answerShift: { enabled: true, psiThreshold: 0.25, minCount: 50 },
  reviewShareJump: { enabled: true, minJump: 0.1, minCount: 50, confidence: 0.95 },
  gatewayFailureRate: { enabled: true, threshold: 0.2, minCount: 10 },
};

/** The bounds the settings routes accept (also the DTO's). */
export const ALERT_RULE_LIMITS = {
  share: { min: 0, max: 1 },
  psiThreshold: { min: 0.01, max: 10 },
  count: { min: 1, max: 100_000 },
  confidence: { min: 0.5, max: 0.9999 },
} as const;

/**
 * Stored settings over the defaults, rule by rule and field by field: a pack saved before a field
 * existed gets that field's default.
 */
export function withDefaultRules(
  stored: Partial<Record<keyof AlertRuleSettings, object>> | null,
): AlertRuleSettings {
  const rule = <K extends keyof AlertRuleSettings>(key: K): AlertRuleSettings[K] => ({
    ...DEFAULT_ALERT_RULES[key],
    ...stored?.[key],
  });
  return {
    agreementDrift: rule('agreementDrift'),
    answerShift: rule('answerShift'),
    reviewShareJump: rule('reviewShareJump'),
    gatewayFailureRate: rule('gatewayFailureRate'),
  };
}

/** The `reviewReasons` of a judgment the model gateway failed (`FailureKind`): unreachable, or refused our key. */
export const GATEWAY_FAILURE_REASONS = ['gateway_unavailable', 'gateway_auth'] as const;

/** The windows of a check at `now`: recent = the last 7 days, baseline = the 28 before, gateway = 15 minutes. */
export function alertWindows(now: Date): { recentSince: Date; baselineSince: Date; gatewaySince: Date } {
  const day = 86_400_000;
  return {
    recentSince: new Date(now.getTime() - RECENT_DAYS * day),
    baselineSince: new Date(now.getTime() - (RECENT_DAYS + BASELINE_DAYS) * day),
    gatewaySince: new Date(now.getTime() - GATEWAY_WINDOW_MINUTES * 60_000),
  };
}
