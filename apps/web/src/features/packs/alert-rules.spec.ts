import { describe, expect, it } from '@jest/globals';
import { RULE_FORMS, rulesChanged, withRuleField, type AlertRules } from './alert-rules';

const SAVED: AlertRules = {
  agreementDrift: { enabled: true, margin: 0.1, minLabels: 30, confidence: 0.95 },
  answerShift: { enabled: true, psiThreshold: 0.25, minCount: 50 },
  reviewShareJump: { enabled: true, minJump: 0.1, minCount: 50, confidence: 0.95 },
  gatewayFailureRate: { enabled: true, threshold: 0.2, minCount: 10 },
};

describe('alert rules form', () => {
  it('changes one field of one rule and keeps the rest', () => {
    const form = withRuleField(SAVED, 'answerShift', 'psiThreshold', 0.4);
    expect(form.answerShift).toEqual({ enabled: true, psiThreshold: 0.4, minCount: 50 });
    expect(form.agreementDrift).toBe(SAVED.agreementDrift);
    expect(SAVED.answerShift.psiThreshold).toBe(0.25);
    expect(rulesChanged(form, SAVED)).toBe(true);
    expect(rulesChanged(withRuleField(form, 'answerShift', 'psiThreshold', 0.25), SAVED)).toBe(false);
  });

  it('shows every number field of every rule', () => {
    for (const { rule, fields } of RULE_FORMS) {
      const numbers = Object.keys(SAVED[rule]).filter((key) => key !== 'enabled');
      expect(fields.map((field) => field.key).sort()).toEqual(numbers.sort());
    }
    expect(RULE_FORMS.map((form) => form.rule).sort()).toEqual(Object.keys(SAVED).sort());
  });

  it('states no bounds of its own: they are the server’s, named by its issue at the field', () => {
    const descriptions = RULE_FORMS.flatMap(({ fields }) => fields.map((field) => field.description));
    expect(descriptions.filter((text) => /\d/.test(text))).toEqual([]);
  });

  it('states no window of its own: the windows are the server’s, named in each alert’s summary', () => {
    const descriptions = RULE_FORMS.map(({ description }) => description);
    expect(descriptions.filter((text) => /\d|day|week|hour|minute/i.test(text))).toEqual([]);
  });
});
