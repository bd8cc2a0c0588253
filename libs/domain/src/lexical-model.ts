/**
 * `local-lexical-1`: the built-in model used when no model gateway is configured.
 *
 * An honest baseline, not a language model. It only counts shared words between the ticket and the
 * pack's own wording, so it cannot read negation, sarcasm, intent or anything the pack does not spell
 * out. It is deterministic, offline and fast, and it is calibrated to be unsure: when few words match,
 * its probabilities stay near uniform (or near 0.15 for yes/no questions), so the pack's review
 * thresholds send the ticket to a human rather than pretending to know.
 *
 * - choice: each option is a bag of words (its value, weighted double, and its description); options
 *   are ranked by a BM25-like overlap with the ticket, where words shared by many options count less;
 *   a softmax at a fixed temperature turns scores into probabilities.
 * - boolean: words of the question's name, criteria description and instructions found in the ticket
 *   are evidence; the probability is a logistic of that evidence. Sentences that describe what does
 *   *not* count are left out, since a bag of words cannot tell a counterexample from an example.
 * - score: a weak prior from ticket length (longer threads tend to be more work), moved by matches
 *   against numbered levels in the description ("1: ... 2: ...") when the pack writes them.
 */
import type { Answer, Usage } from './judgment.js';
import {
  bagOf,
  countTerms,
  rankBags,
  saturate,
  stem,
  terms,
  words,
  type Terms,
} from './lexical-model-terms.js';
import type { BooleanQuestion, ChoiceQuestion, PackDocument, ScoreQuestion } from './pack-document.js';
import type { Ticket } from './ticket.js';

export const LEXICAL_MODEL_ID = 'local-lexical-1';

export interface LexicalJudgment {
  answers: Record<string, Answer>;
  usage: Usage;
}

/** Softmax temperature; a term found in only one option adds 1 to that option's score. */
const TEMPERATURE = 0.8;
/** Share of probability always spread evenly: a word overlap is never proof. */
const UNIFORM_SHARE = 0.1;
/** Boolean: logistic(BIAS + SLOPE * evidence), then shrunk into [0.05, 0.95]; no evidence gives 0.15. */
const BOOLEAN_BIAS = -2.08;
const BOOLEAN_SLOPE = 0.6;
const BOOLEAN_WEIGHTS = { name: 3, description: 2, instructions: 1 };
/** Score prior: ticket "length" (content words, plus this much per thread message) at which the prior is mid-range. */
const LENGTH_MIDPOINT = 40;
const WORDS_PER_MESSAGE = 10;
const MAX_SCORE_OPTIONS = 10;

/** Words of a question's wording that describe the judging task rather than a ticket's content. */
const JUDGING_WORDS = new Set(
  'decide whether true false customer customers ticket tickets message messages count counts pick rate estimate based'
    .split(' ')
    .map(stem),
);
const NEGATION = /\b(?:not|no|never|none|nor|false|without)\b|n't\b/i;

/** Softmax of logits, with a fixed share spread evenly. */
function distribution(logits: number[]): number[] {
  const top = Math.max(...logits);
  const exps = logits.map((logit) => Math.exp(logit - top));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => (1 - UNIFORM_SHARE) * (value / total) + UNIFORM_SHARE / logits.length);
}

/** First index of the largest value, so ties go to the earlier option. */
function argmax(values: number[]): number {
  return values.reduce((best, value, index) => (value > values[best] ? index : best), 0);
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** Rounds to 4 decimals; the chosen key absorbs the rounding so the values sum to 1. */
function probabilityRecord(keys: string[], probabilities: number[], chosen: number): Record<string, number> {
  const rounded = probabilities.map(round4);
  const others = rounded.reduce((sum, value, index) => (index === chosen ? sum : sum + value), 0);
  rounded[chosen] = round4(Math.min(1, Math.max(0, 1 - others)));
  return Object.fromEntries(keys.map((key, index) => [key, rounded[index]]));
}

function judgeChoice(question: ChoiceQuestion, ticket: Terms): Answer {
  const options = question.criteria.options;
  const bags = options.map((option) =>
    bagOf([
      [option.value.replace(/[_-]+/g, ' '), 2],
      [option.description ?? '', 1],
    ]),
  );
  const probabilities = distribution(rankBags(bags, ticket).map((score) => score / TEMPERATURE));
  const chosen = argmax(probabilities);
  const values = options.map((option) => option.value);
  return {
    type: 'choice',
    choice: values[chosen],
    probabilities: probabilityRecord(values, probabilities, chosen),
  };
}

/** Terms of the sentences that do not describe a counterexample. */
function affirmativeTerms(text: string): Set<string> {
  const sentences = text.split(/(?<=[.!?;])\s+|\n+/).filter((sentence) => !NEGATION.test(sentence));
  return new Set(terms(sentences.join(' '), JUDGING_WORDS));
}

function judgeBoolean(question: BooleanQuestion, ticket: Terms): Answer {
  const sections: [Set<string>, number][] = [
    [new Set(terms(question.name, JUDGING_WORDS)), BOOLEAN_WEIGHTS.name],
    [affirmativeTerms(question.criteria.description ?? ''), BOOLEAN_WEIGHTS.description],
    [affirmativeTerms(question.instructions), BOOLEAN_WEIGHTS.instructions],
  ];
  // A term repeated across name, description and instructions is central to the question: weights add up.
  let evidence = 0;
  for (const [section, weight] of sections) {
    for (const term of section) {
      const frequency = ticket.get(term);
      if (frequency) evidence += weight * saturate(frequency);
    }
  }
  const logistic = 1 / (1 + Math.exp(-(BOOLEAN_BIAS + BOOLEAN_SLOPE * evidence)));
  return { type: 'boolean', probability: round4(0.05 + 0.9 * logistic) };
}

/** Numbered levels written as "3: needs some investigation ..." inside [min, max]. */
function scoreLevels(text: string, min: number, max: number): { value: number; text: string }[] {
  const markers = [...text.matchAll(/(?<![\w.:])(-?\d+(?:\.\d+)?)\s*:\s/g)];
  return markers
    .map((marker, index) => ({
      value: Number(marker[1]),
      text: text.slice(marker.index + marker[0].length, markers[index + 1]?.index ?? text.length),
    }))
    .filter((level) => level.value >= min && level.value <= max);
}

function judgeScore(question: ScoreQuestion, ticket: Terms, ticketLength: number): Answer {
  const { min, max } = question.criteria;
  const center = min + (max - min) * (ticketLength / (ticketLength + LENGTH_MIDPOINT));
  const spread = (max - min) / 2;
  const levels = scoreLevels(question.criteria.description ?? '', min, max);
  const matches = rankBags(
    levels.map((level) => bagOf([[level.text, 1]])),
    ticket,
  );
  const logit = (value: number) => {
    const evidence = levels.reduce(
      (sum, level, index) => (level.value === value ? sum + matches[index] : sum),
      0,
    );
    return evidence / TEMPERATURE - (value - center) ** 2 / (2 * spread ** 2);
  };
  const integral = Number.isInteger(min) && Number.isInteger(max);
  if (integral && max - min <= MAX_SCORE_OPTIONS) {
    const values = Array.from({ length: max - min + 1 }, (_, index) => min + index);
    const probabilities = distribution(values.map(logit));
    const chosen = argmax(probabilities);
    return {
      type: 'score',
      score: values[chosen],
      probabilities: probabilityRecord(values.map(String), probabilities, chosen),
    };
  }
  // Too many values to list: the expected value over the prior's center and the written levels.
  const candidates = [center, ...levels.map((level) => level.value)];
  const weights = candidates.map((value) => Math.exp(logit(value)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const expected = candidates.reduce((sum, value, index) => sum + (value * weights[index]) / total, 0);
  const score = integral ? Math.round(expected) : round4(expected);
  return { type: 'score', score: Math.min(max, Math.max(min, score)) };
}

export function judgeLexically(document: PackDocument, ticket: Ticket): LexicalJudgment {
  const text = [ticket.subject, ticket.customerMessage, ...(ticket.messages ?? []).map((m) => m.text)].join(
    '\n',
  );
  const content = terms(text);
  const ticketTerms = countTerms(content);
  const ticketLength = content.length + WORDS_PER_MESSAGE * (ticket.messages?.length ?? 0);
  const answers: Record<string, Answer> = {};
  for (const question of document.questions) {
    if (question.type === 'choice') answers[question.id] = judgeChoice(question, ticketTerms);
    else if (question.type === 'boolean') answers[question.id] = judgeBoolean(question, ticketTerms);
    else answers[question.id] = judgeScore(question, ticketTerms, ticketLength);
  }
  // Word pieces, not sub-word model tokens: the closest honest count this model has.
  const usage = { inputTokens: words(text).length, outputTokens: document.questions.length };
  return { answers, usage };
}
