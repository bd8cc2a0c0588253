import { describe, expect, it } from '@jest/globals';
import {
  agreeingLabel,
  auditText,
  comesAfter,
  excerpt,
  filtersSearch,
  findNextReview,
  formatAuditProbability,
  labelFromValue,
  queueCount,
  queueName,
  queuePositionText,
  readFilters,
  reviewQuery,
  valueFromLabel,
  type QueuePage,
} from './reviews';

describe('review filters', () => {
  const LIVE = ['api', 'webhook', 'mcp'];

  it('reads the query string, ignoring unknown labeled values', () => {
    expect(readFilters(new URLSearchParams('packId=p&labeled=false'))).toEqual({
      packId: 'p',
      questionId: undefined,
      labeled: 'false',
      experiments: false,
      queue: 'review',
      byValue: false,
    });
    expect(
      readFilters(new URLSearchParams('labeled=maybe&questionId=&experiments=true&queue=x&order=x')),
    ).toEqual({
      packId: undefined,
      questionId: undefined,
      labeled: 'all',
      experiments: true,
      queue: 'review',
      byValue: false,
    });
  });

  it('writes the query string and the API query without empty filters', () => {
    expect(filtersSearch({ labeled: 'all', experiments: false })).toBe('');
    expect(filtersSearch({ packId: 'p', questionId: 'q', labeled: 'true', experiments: true })).toBe(
      '?packId=p&questionId=q&labeled=true&experiments=true',
    );
    expect(reviewQuery({ packId: 'p', labeled: 'all', experiments: true }, 'c1')).toEqual({
      packId: 'p',
      cursor: 'c1',
    });
    expect(reviewQuery({ labeled: 'false', experiments: true })).toEqual({ labeled: 'false' });
  });

  it('asks for live traffic only unless experiments are included', () => {
    expect(reviewQuery({ labeled: 'all', experiments: false })).toEqual({ source: LIVE });
    expect(reviewQuery({ labeled: 'false', experiments: false }, 'c')).toEqual({
      labeled: 'false',
      source: LIVE,
      cursor: 'c',
    });
  });
});

describe('the audit queue and the value order', () => {
  it('reads and writes the queue and the order in the URL, leaving out the defaults', () => {
    const filters = readFilters(new URLSearchParams('queue=audit&order=value&packId=p'));
    expect(filters).toMatchObject({ queue: 'audit', byValue: true, packId: 'p' });
    expect(filtersSearch(filters)).toBe('?queue=audit&packId=p&order=value');
    expect(filtersSearch({ labeled: 'all', experiments: false, queue: 'review', byValue: false })).toBe('');
    expect(queueName(filters)).toBe('Audit queue');
    expect(queueName({ labeled: 'all', experiments: false })).toBe('Review queue');
  });

  it('asks the API for the queue and the order only when they are not the defaults', () => {
    expect(reviewQuery({ labeled: 'all', experiments: true, queue: 'audit', byValue: true })).toEqual({
      queue: 'audit',
      order: 'value',
    });
    expect(reviewQuery({ labeled: 'all', experiments: true, queue: 'review', byValue: false })).toEqual({});
  });

  it('says "Selected for audit (p = …)" only for a selected evaluation', () => {
    expect(auditText({ auditProbability: 0.1234, auditSelected: true })).toBe(
      'Selected for audit (p = 0.12)',
    );
    expect(auditText({ auditProbability: 1, auditSelected: true })).toBe('Selected for audit (p = 1)');
    expect(auditText({ auditProbability: 0.05, auditSelected: false })).toBeNull();
    expect(auditText({ auditProbability: null, auditSelected: null })).toBeNull();
    expect(auditText({})).toBeNull();
  });

  it('reads π with two decimals, or two significant digits below 0.01', () => {
    expect(formatAuditProbability(0.212)).toBe('0.21');
    expect(formatAuditProbability(0.5)).toBe('0.5');
    expect(formatAuditProbability(0.00432)).toBe('0.0043');
    expect(formatAuditProbability(0)).toBe('0');
  });

  it('takes the most valuable other item as the next one in the value order', async () => {
    const item = (id: string) => ({ id, createdAt: '2026-01-01T00:00:00Z' });
    const fetchPage = () => Promise.resolve({ items: [item('a'), item('b')], nextCursor: 'more' });
    expect(await findNextReview(fetchPage, item('a'), 20, true)).toBe('b');
    // The current item was labeled and left (or moved down): the queue's head is next.
    expect(await findNextReview(fetchPage, item('z'), 20, true)).toBe('a');
    const alone = () => Promise.resolve({ items: [item('a')], nextCursor: null });
    expect(await findNextReview(alone, item('a'), 20, true)).toBeNull();
  });
});

describe('the size of the queue and a place in it', () => {
  it('shows the total, marked when the count stopped at its cap', () => {
    expect(queueCount(50, 247, false)).toBe('50 of 247 shown');
    expect(queueCount(100, 1_000, true)).toBe('100 of 1,000+ shown');
  });

  it('gives the position of a loaded item, else the size of the queue', () => {
    const loaded = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const total = { total: 247, totalCapped: false };
    expect(queuePositionText('c', loaded, total)).toBe('3 of 247');
    expect(queuePositionText('a', loaded, { total: 1_000, totalCapped: true })).toBe('1 of 1,000+');
    expect(queuePositionText('gone', loaded, total)).toBe('247 in the queue');
    expect(queuePositionText('a', undefined, total)).toBeNull();
    expect(queuePositionText('a', loaded, undefined)).toBeNull();
  });
});

describe('the next item of the queue', () => {
  const at = (id: string, minute: number) => ({
    id,
    createdAt: `2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`,
  });

  it('orders newest first, then by id', () => {
    expect(comesAfter(at('a', 1), at('b', 2))).toBe(true);
    expect(comesAfter(at('c', 2), at('b', 2))).toBe(false);
    expect(comesAfter(at('a', 2), at('b', 2))).toBe(true);
  });

  it('takes the item after the current one, paging on, and starts over at the end', async () => {
    const pages: Record<string, QueuePage> = {
      first: { items: [at('e', 5), at('d', 4)], nextCursor: 'second' },
      second: { items: [at('c', 3), at('b', 2)], nextCursor: null },
    };
    const fetchPage = (cursor?: string) => Promise.resolve(pages[cursor ?? 'first']);
    expect(await findNextReview(fetchPage, at('e', 5))).toBe('d');
    expect(await findNextReview(fetchPage, at('d', 4))).toBe('c');
    // The current item was labeled and left the queue: the next older one still follows.
    expect(await findNextReview(fetchPage, at('a', 3))).toBe('b');
    expect(await findNextReview(fetchPage, at('b', 2))).toBe('e');
    // The last item of a page is followed by the first of the next one.
    const split = (cursor?: string) =>
      Promise.resolve(
        cursor
          ? { items: [at('z', 3)], nextCursor: null }
          : { items: [at('e', 5), at('d', 4)], nextCursor: 'p2' },
      );
    expect(await findNextReview(split, at('d', 4))).toBe('z');
    // Listed order wins over ids for items created in the same millisecond.
    const tied = () => Promise.resolve({ items: [at('a', 5), at('b', 5), at('c', 5)], nextCursor: null });
    expect(await findNextReview(tied, at('b', 5))).toBe('c');
    const alone = () => Promise.resolve({ items: [at('e', 5)], nextCursor: null });
    expect(await findNextReview(alone, at('e', 5))).toBeNull();
  });
});

describe('text', () => {
  it('cuts excerpts to one line', () => {
    expect(excerpt('  Charged\n twice  ')).toBe('Charged twice');
    expect(excerpt('abcdefghij', 5)).toBe('abcd…');
    expect(excerpt(undefined)).toBe('');
  });
});

describe('answers and labels', () => {
  const choice = {
    type: 'choice' as const,
    choice: 'billing',
    probabilities: { billing: 0.7, technical: 0.3 },
  };
  const yes = { type: 'boolean' as const, probability: 0.2 };
  const score = { type: 'score' as const, score: 3, probabilities: { '2': 0.3, '3': 0.6, '4': 0.1 } };

  it('builds the agreeing label in its plain shape', () => {
    expect(agreeingLabel(choice)).toEqual({ type: 'choice', choice: 'billing' });
    expect(agreeingLabel(yes)).toEqual({ type: 'boolean', probability: 0 });
    expect(agreeingLabel(score)).toEqual({ type: 'score', score: 3 });
  });

  it('turns form values into labels and back', () => {
    expect(labelFromValue('choice', 'technical')).toEqual({ type: 'choice', choice: 'technical' });
    expect(labelFromValue('boolean', 'true')).toEqual({ type: 'boolean', probability: 1 });
    expect(labelFromValue('score', '4')).toEqual({ type: 'score', score: 4 });
    expect(labelFromValue('score', 'x')).toBeNull();
    expect(labelFromValue('choice', null)).toBeNull();
    expect(valueFromLabel({ type: 'boolean', probability: 0 })).toBe('false');
    expect(valueFromLabel(score)).toBe(3);
  });
});
