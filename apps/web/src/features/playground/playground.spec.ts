import { describe, expect, it } from '@jest/globals';
import { SAMPLE_DOCUMENT as document } from '../../lib/pack-document.fixtures';
import {
  answerOrder,
  buildTicket,
  derivedFacts,
  EMPTY_TICKET_FORM,
  metadataEntries,
  statusColor,
} from './playground';

describe('buildTicket', () => {
  it('sends subject and message, and thread and metadata only when given', () => {
    expect(buildTicket({ ...EMPTY_TICKET_FORM, subject: 'Hi', customerMessage: 'Help' })).toEqual({
      ok: true,
      ticket: { subject: 'Hi', customerMessage: 'Help' },
    });
    const built = buildTicket({
      subject: 'S',
      customerMessage: 'M',
      messages: [{ role: 'agent', text: '' }],
      metadata: [
        { key: ' plan ', value: 'pro' },
        { key: '', value: '' },
      ],
    });
    expect(built).toEqual({
      ok: true,
      ticket: {
        subject: 'S',
        customerMessage: 'M',
        messages: [{ role: 'agent', text: '' }],
        metadata: { plan: 'pro' },
      },
    });
  });

  it('refuses metadata without a key or with a repeated key', () => {
    const built = buildTicket({
      ...EMPTY_TICKET_FORM,
      metadata: [
        { key: 'a', value: '1' },
        { key: '', value: 'x' },
        { key: 'a', value: '2' },
      ],
    });
    expect(built.ok).toBe(false);
    if (!built.ok) expect(Object.keys(built.metadataErrors)).toEqual(['1', '2']);
  });
});

describe('answers', () => {
  it('colours statuses', () => {
    expect([statusColor('accept'), statusColor('review'), statusColor('reject')]).toEqual([
      'teal',
      'yellow',
      'red',
    ]);
  });

  it('orders answers as the document, unknown ids last', () => {
    const answers = {
      extra: { type: 'boolean' as const, probability: 1 },
      complexity: { type: 'score' as const, score: 1 },
      department: { type: 'choice' as const, choice: 'legal' },
    };
    expect(answerOrder(answers, document)).toEqual(['department', 'complexity', 'extra']);
    expect(answerOrder(answers)).toEqual(['extra', 'complexity', 'department']);
  });

  it('lists metadata as text', () => {
    expect(metadataEntries({ subject: '', customerMessage: '', metadata: { seats: 3, vip: true } })).toEqual([
      ['seats', '3'],
      ['vip', 'true'],
    ]);
  });
});

describe('derivedFacts', () => {
  it('shows only what the pack derives, with a dash where this result has no value', () => {
    expect(derivedFacts({ department: 'billing' }, document)).toEqual([
      { label: 'Department', value: 'billing' },
    ]);
    expect(derivedFacts(undefined, document)).toEqual([{ label: 'Department', value: '—' }]);
  });

  it('hides every derived line for a pack that derives none', () => {
    const plain = { questions: [document.questions[1]] };
    expect(derivedFacts(undefined, plain)).toEqual([]);
    expect(derivedFacts({}, { questions: [] })).toEqual([]);
  });

  it('without the document, shows the derived values the result carries', () => {
    expect(derivedFacts({ priority: 'high', tags: ['vip', 'refund'] })).toEqual([
      { label: 'Priority', value: 'high' },
      { label: 'Tags', value: 'vip, refund' },
    ]);
    expect(derivedFacts(undefined)).toEqual([]);
  });
});
