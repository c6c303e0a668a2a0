// Timeline v2 with many events (node, no browser): builds the lane model of a synthetic snapshot
// (src/core/timeline/timelineModel) and lays out every lane in view with the axis' virtualized
// placement (src/webviews/apps/timeline/axis.ts, bundled on the fly like the unit tests do), zoomed
// out (everything merged into groups) and zoomed in. The figure: the time of model + layout, and
// how many elements the view would draw (bounded by the width, not by the number of events).
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { ROOT, rng, src } from './common.mjs';

const agents = ['claude', 'cursor', 'codex', 'gemini'];

/** A deterministic snapshot of about `events` entries: sessions of prompts, three edits per prompt, a commit every 8 prompts. */
export function syntheticTimeline(events = 10_000, seed = 7) {
  const r = rng(seed);
  const sessions = [];
  const entries = [];
  const t0 = Date.UTC(2026, 0, 5, 8, 0, 0);
  let t = t0;
  let n = 0;
  let s = 0;
  const iso = (ms) => new Date(ms).toISOString();
  while (n < events) {
    const agent = agents[s % agents.length];
    const key = `${agent}:s${s}`;
    const start = t;
    const turns = r.int(10, 40);
    let pending = [];
    for (let turn = 1; turn <= turns && n < events; turn++) {
      t += r.int(20, 600) * 1000;
      entries.push({
        kind: 'prompt',
        id: `p:${key}:${turn}`,
        time: iso(t),
        sessionKey: key,
        turn,
        firstLine: `Prompt ${turn}`,
        text: `Prompt ${turn}`,
        response: null,
      });
      n++;
      for (let k = 0; k < 3 && n < events; k++) {
        t += r.int(2, 60) * 1000;
        const file = `src/mod${r.int(0, 199)}.ts`;
        pending.push(file);
        entries.push({
          kind: 'edit',
          id: `e:${n}`,
          time: iso(t),
          sessionKey: key,
          turn,
          file,
          added: r.int(1, 40),
          removed: r.int(0, 10),
          origin: 'ai',
          hasBlobs: true,
        });
        n++;
      }
      if (turn % 8 === 0 && n < events) {
        t += 30_000;
        const sha = r.hex(40);
        entries.push({
          kind: 'commit',
          id: `c:${sha}`,
          time: iso(t),
          sha,
          short: sha.slice(0, 7),
          subject: `commit ${n}`,
          aiRatio: r.int(0, 100),
          method: 'line',
          agent,
          noted: true,
          sessionKey: key,
          files: [...new Set(pending)],
          branches: ['main'],
        });
        pending = [];
        n++;
      }
    }
    sessions.push({
      key,
      agent,
      sessionId: `s${s}-${r.hex(8)}`,
      model: 'model-x',
      startedAt: iso(start + 1000),
      lastActivityAt: iso(t),
      active: false,
    });
    s++;
    t += r.int(10, 120) * 60_000;
  }
  return { sessions, entries, branch: 'main', headTime: iso(t - 3_600_000), strings: {} };
}

function loadAxis() {
  const out = buildSync({
    entryPoints: [join(ROOT, 'src/webviews/apps/timeline/axis.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(mod, mod.exports, () => ({}));
  return mod.exports;
}

/** Samples (ms) of model + filter + layout of every lane at two zoom levels, with the drawn-element counts. */
export function timelineBench({ events = 10_000, samples = 15, width = 1200 } = {}) {
  const { buildTimelineModel, filterTimelineModel, emptyModelFilters } = src('core/timeline/timelineModel');
  const axis = loadAxis();
  const snapshot = syntheticTimeline(events);
  const times = [];
  const layoutTimes = [];
  let drawnFit = 0;
  let drawnZoom = 0;
  let marks = 0;
  let lanes = 0;
  for (let i = 0; i < samples + 2; i++) {
    const a = performance.now();
    const full = buildTimelineModel(snapshot);
    const model = filterTimelineModel(full, emptyModelFilters(), snapshot.branch);
    const b = performance.now();
    const laneTimes = model.byLane.map((idx) => Float64Array.from(idx, (j) => model.marks[j].t));
    const fit = axis.fitViewport(model.start, model.end, width);
    const zoom = axis.zoomAt(fit, 200);
    let df = 0;
    let dz = 0;
    for (const lt of laneTimes) df += axis.placeLane(lt, fit, 16).length;
    // the view draws the lanes scrolled into view only (about 20); here every lane is laid out
    for (const lt of laneTimes) dz += axis.placeLane(lt, zoom, 16).length;
    const c = performance.now();
    if (i < 2) continue; // warm-up
    times.push(c - a);
    layoutTimes.push(c - b);
    drawnFit = df;
    drawnZoom = dz;
    marks = model.marks.length;
    lanes = model.lanes.length;
  }
  return {
    events: snapshot.entries.length + snapshot.sessions.length,
    marks,
    lanes,
    samples: times,
    layoutSamples: layoutTimes,
    drawnFit,
    drawnZoom,
    width,
  };
}

// `node scripts/bench/timelineBench.mjs` prints the figure on its own (after node esbuild.mjs).
if (process.argv[1] && process.argv[1].endsWith('timelineBench.mjs')) {
  const r = timelineBench();
  const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  console.log(
    `timeline: ${r.events} events, ${r.marks} marks in ${r.lanes} lanes; model + layout median ${med(r.samples).toFixed(1)} ms (layout ${med(r.layoutSamples).toFixed(1)} ms); drawn elements ${r.drawnFit} zoomed out, ${r.drawnZoom} zoomed in (width ${r.width} px)`,
  );
}
