/**
 * The view's side of MCP Apps (postMessage JSON-RPC with the host): ui/initialize, the host's
 * theme and style variables, tool results, and tools/call through the host. Written out rather
 * than taken from ext-apps' App, whose bundle (with the MCP client and zod) is over 60 kB gzipped.
 */
export interface ToolResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

interface HostContext {
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string | undefined> };
}

interface Message {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

const PROTOCOL_VERSION = '2026-01-26';

export class HostBridge {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();

  constructor(
    private readonly name: string,
    private readonly onToolResult: (result: ToolResult) => void,
  ) {
    window.addEventListener('message', (event) => {
      if (event.source === window.parent) this.receive(event.data as Message);
    });
  }

  async connect(): Promise<void> {
    const result = (await this.request('ui/initialize', {
      appInfo: { name: this.name, version: '1.0.0' },
      appCapabilities: {},
      protocolVersion: PROTOCOL_VERSION,
    })) as { hostContext?: HostContext };
    applyContext(result.hostContext ?? {});
    this.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await this.request('tools/call', { name, arguments: args })) as ToolResult;
  }

  private request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ jsonrpc: '2.0', id, method, params });
    });
  }

  private receive(message: Message): void {
    if (message?.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiting = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (!waiting) return;
      this.pending.delete(message.id as number);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    if (message.method === 'ui/notifications/tool-result') this.onToolResult(message.params as ToolResult);
    else if (message.method === 'ui/notifications/host-context-changed')
      applyContext(message.params as HostContext);
    else if (message.id !== undefined) {
      // A request this view does not serve (teardown needs no work: nothing to save).
      this.post({ jsonrpc: '2.0', id: message.id, result: {} });
    }
  }

  private post(message: Message): void {
    window.parent.postMessage(message, '*');
  }
}

/** The host's theme (light or dark) and its CSS variables, which the view's styles read. */
function applyContext(context: HostContext): void {
  const root = document.documentElement;
  if (context.theme) {
    root.dataset.theme = context.theme;
    root.style.colorScheme = context.theme;
  }
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (value !== undefined && name.startsWith('--')) root.style.setProperty(name, value);
  }
}

/** Creates an element with a class and text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}
