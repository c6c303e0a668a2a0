import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * A GitHub Copilot Chat session as VS Code writes it into the window's workspace storage
 * (`workspaceStorage/<id>/chatSessions/<sessionId>.json|.jsonl`, docs/transcripts.md §11): `json`
 * rewrites the whole document in place (VS Code < 1.109), `jsonl` appends mutation-log entries
 * (VS Code ≥ 1.109: a `kind: 0` state, then `kind: 2` pushes of new requests and `kind: 1` sets
 * of their result, response and model state). The request and tool-call shapes are those of the
 * genuine samples (Copilot Chat 0.31–0.37).
 */
export class CopilotSession {
  readonly id = randomUUID();
  readonly file: string;
  private readonly requests: Record<string, unknown>[] = [];
  private readonly created = Date.now();

  constructor(
    chatSessionsDir: string,
    private readonly format: 'json' | 'jsonl',
  ) {
    this.file = path.join(chatSessionsDir, `${this.id}.${format}`);
    fs.mkdirSync(chatSessionsDir, { recursive: true });
  }

  private state(): Record<string, unknown> {
    return {
      version: 3,
      requesterUsername: 'ann',
      responderUsername: 'GitHub Copilot',
      initialLocation: 'panel',
      sessionId: this.id,
      creationDate: this.created,
      lastMessageDate: Date.now(),
      hasPendingEdits: false,
      requests: this.requests,
      inputState: { inputText: '', attachments: [], mode: { id: 'agent', kind: 'agent' }, selections: [] },
    };
  }

  private append(...entries: unknown[]): void {
    fs.appendFileSync(this.file, entries.map((e) => JSON.stringify(e) + '\n').join(''));
  }

  private rewrite(): void {
    fs.writeFileSync(this.file, JSON.stringify(this.state(), null, 2));
  }

  /** The person sends a prompt in agent mode. */
  prompt(text: string): void {
    const r = {
      requestId: `request_${randomUUID()}`,
      timestamp: Date.now(),
      agent: {
        extensionId: { value: 'GitHub.copilot-chat', _lower: 'github.copilot-chat' },
        extensionVersion: '0.37.1',
        id: 'github.copilot.editsAgent',
      },
      modelId: 'copilot/gpt-4.1',
      responseId: `response_${randomUUID()}`,
      message: { text, parts: [{ range: { start: 0, endExclusive: text.length }, text, kind: 'text' }] },
      variableData: { variables: [] },
      response: [],
      followups: [],
      contentReferences: [],
      codeCitations: [],
      timeSpentWaiting: 0,
    };
    this.requests.push(r);
    if (this.format === 'json') this.rewrite();
    else if (this.requests.length === 1) this.append({ kind: 0, v: this.state() });
    else this.append({ kind: 2, k: ['requests'], v: [r] });
  }

  /**
   * The request's tool calls finished and its answer was written: `result.metadata.toolCallRounds`
   * with `arguments` as JSON strings, the markdown answer and a completed model state.
   */
  finish(calls: { name: string; args: Record<string, unknown> }[], answer: string): void {
    const i = this.requests.length - 1;
    const r = this.requests[i];
    const result = {
      timings: { firstProgress: 900, totalElapsed: 2500 },
      metadata: {
        toolCallRounds: [
          {
            id: randomUUID(),
            response: '',
            toolCalls: calls.map((c) => ({
              id: `call_${randomUUID().replace(/-/g, '')}__vscode-${Date.now()}`,
              name: c.name,
              arguments: JSON.stringify(c.args),
            })),
            toolInputRetry: 0,
            timestamp: Date.now(),
          },
          { id: randomUUID(), response: answer, toolCalls: [], toolInputRetry: 0 },
        ],
        toolCallResults: {},
        modelMessageId: randomUUID(),
        responseId: randomUUID(),
        sessionId: randomUUID(),
        agentId: 'github.copilot.editsAgent',
      },
    };
    const response = [{ value: answer, supportThemeIcons: false, supportHtml: false }];
    const modelState = { value: 1, completedAt: Date.now() };
    Object.assign(r, { result, response, modelState });
    if (this.format === 'json') this.rewrite();
    else
      this.append(
        { kind: 1, k: ['requests', i, 'response'], v: response },
        { kind: 1, k: ['requests', i, 'result'], v: result },
        { kind: 1, k: ['requests', i, 'modelState'], v: modelState },
      );
  }
}
