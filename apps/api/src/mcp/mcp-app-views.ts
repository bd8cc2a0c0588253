import { existsSync, readFileSync } from 'node:fs';
import { Injectable } from '@nestjs/common';
import {
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/server';
import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';

/** An MCP Apps view: a self-contained HTML page built by scripts/build-mcp-views.mjs. */
interface AppView {
  uri: string;
  file: string;
  name: string;
  description: string;
  tools: readonly string[];
}

export const APP_VIEWS: readonly AppView[] = [
  {
    uri: 'ui://ticket-judge/evaluation.html',
    file: 'evaluation.html',
    name: 'Evaluation card',
    description:
      'The decision and its reasons, each answer with its probabilities, the redacted ticket, and Agree / Other answer buttons that label the evaluation.',
    tools: ['judge_ticket', 'get_evaluation'],
  },
  {
    uri: 'ui://ticket-judge/calibration.html',
    file: 'calibration.html',
    name: 'Reliability chart',
    description:
      "Each question's reliability: the judge's selected probability against reviewers' agreement.",
    tools: ['get_calibration'],
  },
];

/**
 * Where `npm run build` writes the views, dist/mcp-views: beside dist/apps when the API runs built,
 * under dist when it runs from source (the e2e specs).
 */
const VIEWS_DIRS = [
  new URL('../../../../mcp-views/', import.meta.url),
  new URL('../../../../dist/mcp-views/', import.meta.url),
];

/** True when the client declared the MCP Apps extension with its HTML MIME type. */
export function supportsAppViews(capabilities: ClientCapabilities | undefined): boolean {
  const ui = getUiCapability(capabilities);
  return ui !== undefined && (ui.mimeTypes ?? [RESOURCE_MIME_TYPE]).includes(RESOURCE_MIME_TYPE);
}

/**
 * The MCP Apps views (`ui://ticket-judge/…`): judge_ticket and get_evaluation show the evaluation
 * card, get_calibration the reliability chart. Only offered to clients that declared the extension.
 */
@Injectable()
export class McpAppViews {
  private readonly html = new Map<string, string>();

  /** The `_meta` a tool's listing carries, in both the current and the legacy key. */
  toolMeta(toolName: string): Record<string, unknown> | undefined {
    const view = APP_VIEWS.find((candidate) => candidate.tools.includes(toolName));
    return view && { ui: { resourceUri: view.uri }, 'ui/resourceUri': view.uri };
  }

  list(): Resource[] {
    return APP_VIEWS.map((view) => ({
      uri: view.uri,
      name: view.name,
      title: view.name,
      description: view.description,
      mimeType: RESOURCE_MIME_TYPE,
    }));
  }

  isView(uri: string): boolean {
    return APP_VIEWS.some((view) => view.uri === uri);
  }

  read(uri: string): ReadResourceResult {
    const view = APP_VIEWS.find((candidate) => candidate.uri === uri);
    if (!view)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown resource ${uri.slice(0, 100)}`);
    return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: this.load(view.file) }] };
  }

  private load(file: string): string {
    let html = this.html.get(file);
    if (html === undefined) {
      const path = VIEWS_DIRS.map((dir) => new URL(file, dir)).find((candidate) => existsSync(candidate));
      if (!path) throw new Error(`MCP view ${file} is not built: run npm run build`);
      html = readFileSync(path, 'utf8');
      this.html.set(file, html);
    }
    return html;
  }
}
