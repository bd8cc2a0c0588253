import type { Schemas } from '../../api/client';

export type AlertRules = Schemas['AlertRulesDto'];
export type RuleKey = keyof AlertRules;

/**
 * A number field of a rule, as the form shows it. Its bounds and their checks are the server's
 * (ALERT_RULE_LIMITS): a refused value shows the server's issue at the field, never a copied range.
 */
export interface RuleField {
  key: string;
  label: string;
  description: string;
  integer?: boolean;
}

/**
 * Each rule's name, what it watches, and its number fields, in the order docs/alerts.md gives them.
 * The windows are the server's (RECENT_DAYS, BASELINE_DAYS, GATEWAY_WINDOW_MINUTES) and are not
 * restated here: an alert's summary, which the server writes, names the windows it compared.
 */
export const RULE_FORMS: Array<{ rule: RuleKey; label: string; description: string; fields: RuleField[] }> = [
  {
    rule: 'agreementDrift',
    label: 'Agreement drift',
    description:
      'Reviewers agree with a question’s answers less in the recent window than in the baseline before it.',
    fields: [
      { key: 'margin', label: 'Margin', description: 'Drop below the baseline agreement, as a share' },
      { key: 'minLabels', label: 'Minimum labels', description: 'In each window', integer: true },
      { key: 'confidence', label: 'Confidence', description: 'Of the upper bound' },
    ],
  },
  {
    rule: 'answerShift',
    label: 'Answer shift',
    description: 'A question’s answers in the recent window differ from those in the baseline before it.',
    fields: [
      {
        key: 'psiThreshold',
        label: 'PSI threshold',
        description: 'Population stability index above which it fires',
      },
      { key: 'minCount', label: 'Minimum answers', description: 'In each window', integer: true },
    ],
  },
  {
    rule: 'reviewShareJump',
    label: 'Review share jump',
    description:
      'More of the pack’s evaluations go to review in the recent window than in the baseline before it.',
    fields: [
      { key: 'minJump', label: 'Minimum rise', description: 'Of the review share, as a share' },
      { key: 'minCount', label: 'Minimum evaluations', description: 'In each window', integer: true },
      { key: 'confidence', label: 'Confidence', description: 'Of the z test' },
    ],
  },
  {
    rule: 'gatewayFailureRate',
    label: 'Gateway failures',
    description: 'The model gateway fails on the pack’s latest evaluations, over a short window.',
    fields: [
      { key: 'threshold', label: 'Failure rate', description: 'Share above which it fires' },
      { key: 'minCount', label: 'Minimum evaluations', description: 'In the window', integer: true },
    ],
  },
];

/** The rules with one field of one rule changed; the others are kept as they are. */
export function withRuleField(rules: AlertRules, rule: RuleKey, field: string, value: unknown): AlertRules {
  return { ...rules, [rule]: { ...rules[rule], [field]: value } };
}

/** Whether the form differs from the saved rules. */
export function rulesChanged(form: AlertRules, saved: AlertRules): boolean {
  return JSON.stringify(form) !== JSON.stringify(saved);
}
