import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
/** Everything the API serves; `npm run dev:web` forwards these to it, so the session cookie just works. */
const API_PATHS = [
  '/api',
  '/app',
  '/login',
  '/consent',
  '/oauth',
  '/.well-known',
  '/mcp',
  '/docs',
  '/admin',
  '/healthz',
  '/readyz',
  '/favicon.ico',
];

/**
 * The web app. `npm run build:web` writes it to dist/web, which the API serves at `/`;
 * `npm run dev:web` runs Vite's dev server with the API behind its proxy. `@vitejs/plugin-react`
 * compiles JSX (React's automatic runtime) and adds fast refresh: an edited component is swapped in
 * place, keeping its state.
 */
export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: path.resolve(here, '../../dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      // Mantine marks its modules "use client" for React Server Components; meaningless in a SPA.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
    },
  },
  server: {
    proxy: Object.fromEntries(API_PATHS.map((prefix) => [prefix, { target: api, changeOrigin: false }])),
  },
});
