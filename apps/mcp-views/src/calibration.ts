import { el, HostBridge, percent, type ToolResult } from './host-bridge.js';

interface Bin {
  from: number;
  to: number;
  count: number;
  agreement: number | null;
}

interface Calibration {
  versionId: string;
  targetAgreement: number;
  questions: { questionId: string; labeled: number; reliability: Bin[] }[];
}

const SVG = 'http://www.w3.org/2000/svg';
const root = document.getElementById('root')!;
const bridge = new HostBridge('ticket-judge-calibration', show);

function show(toolResult: ToolResult): void {
  const calibration = toolResult.structuredContent as Calibration | undefined;
  root.replaceChildren();
  if (toolResult.isError || !calibration?.questions) {
    root.append(el('p', undefined, toolResult.content?.[0]?.text ?? 'No calibration to show.'));
    return;
  }
  root.append(
    el('h1', undefined, 'Reliability'),
    el(
      'p',
      'muted',
      `Selected probability against reviewers' agreement; target ${percent(calibration.targetAgreement)}.`,
    ),
  );
  for (const question of calibration.questions) {
    const section = el('section');
    section.append(
      el('h2', undefined, `${question.questionId} (${question.labeled} labeled)`),
      chart(question),
    );
    root.append(section);
  }
}

/** A reliability diagram: a point per bin with labels, against the diagonal of perfect calibration. */
function chart(question: Calibration['questions'][number]): SVGElement {
  const size = 200;
  const pad = 24;
  const scale = (value: number) => pad + value * (size - 2 * pad);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('width', String(size));
  svg.setAttribute('role', 'img');
  const filled = question.reliability.filter((bin) => bin.agreement !== null && bin.count > 0);
  svg.setAttribute(
    'aria-label',
    filled.length
      ? `${question.questionId}: ${filled.map((bin) => `${percent(bin.from)}–${percent(bin.to)} agreed ${percent(bin.agreement!)} of ${bin.count}`).join('; ')}`
      : `${question.questionId}: no labeled answers yet`,
  );
  const add = (tag: string, attributes: Record<string, string | number>, text?: string) => {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text) node.textContent = text;
    svg.append(node);
  };
  const y = (value: number) => size - scale(value);
  add('rect', {
    x: pad,
    y: pad,
    width: size - 2 * pad,
    height: size - 2 * pad,
    fill: 'none',
    stroke: 'var(--border)',
  });
  add('line', {
    x1: scale(0),
    y1: y(0),
    x2: scale(1),
    y2: y(1),
    stroke: 'var(--border)',
    'stroke-dasharray': 4,
  });
  add('text', { x: pad, y: size - 6 }, '0');
  add('text', { x: size - pad - 6, y: size - 6 }, '1');
  for (const bin of filled) {
    add('circle', {
      cx: scale((bin.from + bin.to) / 2),
      cy: y(bin.agreement!),
      r: 3 + Math.min(5, Math.sqrt(bin.count)),
      fill: 'var(--bar)',
    });
  }
  return svg;
}

void bridge.connect();
