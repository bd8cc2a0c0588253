// After `vite build`: writes .br and .gz copies of the web app's scripts and styles, which the API
// serves to browsers that accept them (@fastify/static's preCompressed), so no request pays for
// compression at run time. Node's own zlib; the files are built once.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const assets = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../dist/web/assets');
for (const name of readdirSync(assets).filter((file) => /\.(js|css)$/.test(file))) {
  const file = path.join(assets, name);
  const content = readFileSync(file);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
}
