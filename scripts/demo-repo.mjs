// Builds the demo repository through the real recording pipeline (see test/demo/demoRepository.ts).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

const require = createRequire(import.meta.url);

/** @param {{ base: string, home: string }} dirs */
export async function createDemoRepository({ base, home }) {
  const prevHome = process.env.HOME;
  process.env.HOME = home; // the agents' default homes live under the demo HOME
  try {
    const { createDemoRepository: build } = require(join(ROOT, 'out/test/demo/demoRepository.js'));
    return await build({ base, home, log: (/** @type {string} */ m) => console.log(`[demo] ${m}`) });
  } finally {
    process.env.HOME = prevHome;
  }
}
