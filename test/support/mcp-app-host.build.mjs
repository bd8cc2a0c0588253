// Prints the test host's browser module (test/support/mcp-app-host.ts): ext-apps' AppBridge hosting
// a view in a sandboxed iframe, the host context (theme, CSS variables), then the tool result once
// the view is initialized. Every tools/call the view sends is kept in `window.toolCalls` and
// answered from `window.toolAnswers` by tool name.
import { build } from 'vite';

const HOST_SOURCE = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
window.toolCalls = [];
window.toolAnswers = {};
window.startHost = async (html, toolResult, hostContext) => {
  const iframe = document.createElement('iframe');
  iframe.title = 'App view';
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = 'width: 100%; height: 90vh; border: 0';
  document.body.append(iframe);
  const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, { serverTools: {} }, { hostContext });
  bridge.oncalltool = async (params) => {
    window.toolCalls.push(params);
    return window.toolAnswers[params.name] ?? { content: [{ type: 'text', text: '{}' }], structuredContent: {} };
  };
  bridge.oninitialized = () => void bridge.sendToolResult(toolResult);
  const ready = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  iframe.srcdoc = html;
  await ready;
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
};
`;

const output = await build({
  configFile: false,
  logLevel: 'warn',
  plugins: [
    {
      name: 'mcp-app-host',
      // Lib mode makes the entry an absolute path.
      resolveId: (id) => (id.endsWith('virtual:mcp-app-host') ? '\0mcp-app-host' : undefined),
      load: (id) => (id === '\0mcp-app-host' ? HOST_SOURCE : undefined),
    },
  ],
  build: {
    write: false,
    minify: false,
    lib: { entry: 'virtual:mcp-app-host', formats: ['es'], fileName: 'host' },
  },
});
process.stdout.write([output].flat()[0].output[0].code);
