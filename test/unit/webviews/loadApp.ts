/**
 * Loads a browser-app module (src/webviews/apps/**) in Node. The build transpiles src to out/
 * except the apps (they are bundled for the browser), so tests bundle the pure modules on the fly
 * with esbuild; `import type` of the same file keeps the test type-checked.
 */
import { buildSync } from 'esbuild';
import * as path from 'node:path';
import { repoRoot } from '../report/peerFixtures';

const cache = new Map<string, unknown>();

/** e.g. `loadApp<typeof import('…/apps/timeline/state')>('timeline/state')`. */
export function loadApp<T>(modulePath: string): T {
  const hit = cache.get(modulePath);
  if (hit) return hit as T;
  const entry = path.join(repoRoot(), 'src', 'webviews', 'apps', `${modulePath}.ts`);
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const mod: { exports: Record<string, unknown> } = { exports: {} };
  new Function('module', 'exports', 'require', result.outputFiles[0].text)(mod, mod.exports, require);
  cache.set(modulePath, mod.exports);
  return mod.exports as T;
}
