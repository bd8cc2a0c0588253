// The cost-growth runs of bench:judge and bench:inbound (issue 26, goal 6): a pack of ten times
// the questions and tickets of ten and a hundred times the bytes, built from the end-to-end tests'
// pack and ticket, and the table and verdict both benchmarks print.
import type { Client } from '../../test/support/client.js';
import { createPublishedPack, TICKET, triageDocument } from '../../test/support/packs.js';
import { median } from './load.js';
import { fixed, table } from './report.js';

function withoutDerive<C extends object>(criteria: C): Omit<C, 'derive'> {
  const { derive: _derive, ...rest } = criteria as C & { derive?: unknown };
  return rest;
}

/** The triage document's three questions `copies` times over, each copy's ids and names suffixed (`department_2`). */
export function widePackDocument(copies: number) {
  const { questions } = triageDocument();
  return {
    questions: Array.from({ length: copies }, (_, copy) =>
      questions.map((question) => ({
        ...question,
        id: copy ? `${question.id}_${copy + 1}` : question.id,
        name: copy ? `${question.name} ${copy + 1}` : question.name,
        // `derive` names one of a few ticket fields; only the first copy sets it.
        criteria: copy ? withoutDerive(question.criteria) : question.criteria,
      })),
    ).flat(),
  };
}

/** Agent and customer turns (about 400 bytes each), with the kinds of personal data redaction looks for. */
const TURNS = [
  {
    role: 'agent',
    text:
      'Thanks for the details. I can see two charges of 49.00 on the card ending 4242 this month, one on the ' +
      'third and one on the fourth, both for the pro plan. The second looks like a retry after a timeout on our ' +
      'side. I will ask billing to reverse it and will write again here as soon as they confirm the refund.',
  },
  {
    role: 'customer',
    text:
      'Yes, that is what I mean. You can call me on +1 415 555 0134 or write to jane.doe@example.com if you ' +
      'need more. My order number is 88231-AX and the account is under my company, Doe Consulting, on the pro ' +
      'plan with three seats. I would rather have the money back than a credit on the next invoice, please.',
  },
] as const;

/**
 * The tests' ticket with conversation turns added until its JSON is at least `bytes` long (at most
 * about 80 kB: a ticket holds 200 messages).
 */
export function ticketOfSize(bytes: number) {
  const messages: Array<{ role: string; text: string; at: string }> = [...TICKET.messages];
  const ticket = { ...TICKET, messages };
  for (let i = 0; JSON.stringify(ticket).length < bytes; i++) {
    const turn = TURNS[i % TURNS.length];
    const at = new Date(Date.UTC(2026, 10, 20, 10, 1 + i)).toISOString();
    messages.push({ role: turn.role, text: `${turn.text} (${i + 1})`, at });
  }
  return ticket;
}

/** One input of the growth runs. */
export interface GrowthInput {
  name: string;
  questions: number;
  /** The ticket's JSON length. */
  ticketBytes: number;
}

/** One measured load of a growth input: CPU ms per judgment (or event) of each process group. */
export interface GrowthRun {
  round: number;
  input: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  cpuMs: Record<string, number>;
}

export interface GrowthResults {
  inputs: GrowthInput[];
  /** The CPU groups, in the order the tables show them. */
  groups: string[];
  runs: GrowthRun[];
}

/**
 * The inputs, each with the request body for `packId` (three questions) or a published pack of 30
 * made here: the base ticket, tickets of 3 and 30 kB, 30 questions, and both 30 questions and 30 kB.
 */
export async function growthInputs(
  client: Client,
  packId: string,
): Promise<Array<GrowthInput & { body: string }>> {
  const wide = (await createPublishedPack(client, widePackDocument(10), 'Wide triage')) as { id: string };
  const input = (name: string, questions: number, pack: string, ticket: unknown) => ({
    name,
    questions,
    ticketBytes: JSON.stringify(ticket).length,
    body: JSON.stringify({ packId: pack, ticket }),
  });
  return [
    input('base', 3, packId, TICKET),
    input('ticket 3 kB', 3, packId, ticketOfSize(3_000)),
    input('ticket 30 kB', 3, packId, ticketOfSize(30_000)),
    input('30 questions', 30, wide.id, TICKET),
    input('30 questions, ticket 30 kB', 30, wide.id, ticketOfSize(30_000)),
  ];
}

/** Medians over the rounds of each input. */
function growthMedians(growth: GrowthResults) {
  return growth.inputs.map((input) => {
    const runs = growth.runs.filter((run) => run.input === input.name);
    const of = (pick: (run: GrowthRun) => number) => median(runs.map(pick));
    return {
      input,
      rps: of((run) => run.rps),
      p50: of((run) => run.p50),
      p99: of((run) => run.p99),
      cpu: Object.fromEntries(growth.groups.map((group) => [group, of((run) => run.cpuMs[group])])),
    };
  });
}

/** Each input's medians, with each group's CPU as a multiple of the base input's. */
export function growthTable(growth: GrowthResults, unit: string): string {
  const medians = growthMedians(growth);
  const base = medians[0];
  return table(
    [
      'Input',
      'Questions',
      'Ticket bytes',
      'rps',
      'p50 / p99',
      ...growth.groups.flatMap((group) => [`${group} CPU / ${unit}`, 'x base']),
    ],
    medians.map((m) => [
      m.input.name,
      String(m.input.questions),
      String(m.input.ticketBytes),
      m.rps.toFixed(0),
      `${fixed(1)(m.p50)} / ${fixed(1)(m.p99)}`,
      ...growth.groups.flatMap((group) => [
        fixed(2)(m.cpu[group]),
        (m.cpu[group] / base.cpu[group]).toFixed(2),
      ]),
    ]),
  );
}

/**
 * The goal's reading: tenfold input (the 3 kB ticket to the 30 kB one; 3 questions to 30) should
 * cost at most tenfold CPU, in every group (linear or better).
 */
export function growthVerdict(growth: GrowthResults): string {
  const byName = new Map(growthMedians(growth).map((m) => [m.input.name, m]));
  const steps = [
    { what: 'the ticket', from: 'ticket 3 kB', to: 'ticket 30 kB' },
    { what: 'the questions', from: 'base', to: '30 questions' },
  ];
  return steps
    .flatMap(({ what, from, to }) => {
      const a = byName.get(from);
      const b = byName.get(to);
      if (!a || !b) return [];
      const size =
        what === 'the ticket'
          ? b.input.ticketBytes / a.input.ticketBytes
          : b.input.questions / a.input.questions;
      const growths = growth.groups.map((group) => ({ group, times: b.cpu[group] / a.cpu[group] }));
      const linear = growths.every(({ times }) => times <= size);
      const described = growths.map(({ group, times }) => `${group} x${times.toFixed(2)}`).join(', ');
      return [
        `- ${size.toFixed(1)}x ${what} (${from} to ${to}): CPU ${described}: **${linear ? 'linear or better' : 'WORSE than linear'}**.`,
      ];
    })
    .join('\n');
}
