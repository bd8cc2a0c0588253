// Builds the MCP Apps views (apps/mcp-views) into self-contained HTML pages, script and style
// inline, in dist/mcp-views: the API serves them as ui:// resources (docs/mcp.md, "App views").
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const source = fileURLToPath(new URL('../apps/mcp-views/src/', import.meta.url));
const out = fileURLToPath(new URL('../dist/mcp-views/', import.meta.url));
const views = { evaluation: 'Evaluation', calibration: 'Reliability' };
const css = readFileSync(`${source}view.css`, 'utf8');

mkdirSync(out, { recursive: true });
for (const [name, title] of Object.entries(views)) {
  const [result] = [
    await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        write: false,
        minify: true,
        target: 'es2022',
        lib: { entry: `${source}${name}.ts`, formats: ['es'], fileName: name },
      },
    }),
  ].flat();
  const script = result.output[0].code.replaceAll('</script', '<\\/script');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${css}</style>
</head>
<body>
<main id="root"><p>Loading…</p></main>
<script type="module">${script}</script>
</body>
</html>
`;
  writeFileSync(`${out}${name}.html`, html);
}
