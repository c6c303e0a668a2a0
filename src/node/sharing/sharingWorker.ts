/**
 * Entry point of the sharing worker thread (bundled as dist/sharingWorker.js): reading and
 * merging notes (git output, JSON decoding, conflict resolution) happens here, never on the
 * extension host's thread. Protocol: see sharingWorkerClient.ts.
 */
import { parentPort, threadId } from 'node:worker_threads';
import type { Logger } from '../../core/ports';
import { sharingOps, type SharingOp } from './sharingOps';
import type { LogLevel, WorkerReply, WorkerRequest } from './sharingWorkerClient';

const port = parentPort;
port?.on('message', (req: WorkerRequest) => {
  const post = (level: LogLevel) => (message: string) => port.postMessage({ id: req.id, log: { level, message } } satisfies WorkerReply);
  const log: Logger = { trace: post('trace'), debug: post('debug'), info: post('info'), warn: post('warn'), error: post('error') };
  const run = sharingOps(log)[req.op as SharingOp] as (repo: unknown, args: unknown) => Promise<unknown>;
  Promise.resolve()
    .then(() => run(req.repo, req.args))
    .then(
      (result) => port.postMessage({ id: req.id, result, threadId } satisfies WorkerReply),
      (e: unknown) => port.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e), threadId } satisfies WorkerReply),
    );
});
