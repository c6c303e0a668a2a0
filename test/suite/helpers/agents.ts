import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { aiLineNumbers, lineHash } from '../../../src/core/notes/lineHashes';

/** Writes agent transcripts into the (isolated) HOME of the extension host, as the agents do. */

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Ann Dev', '-c', 'user.email=ann@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
}

/** `git add -A` + `git commit` from a terminal-like process; the new HEAD. */
export function commitAll(root: string, message: string): string {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
  return git(root, 'rev-parse', 'HEAD').trim();
}

/**
 * The note of `rev`, parsed. Our additive `files[].ai_line_hashes` are checked here against the
 * committed blob (one hash per AI line, each the hash of that line) and left out when right, so
 * that tests compare `files[]` as the CLI's schema has it; `{ raw: true }` keeps them.
 */
export function noteOf(root: string, rev = 'HEAD', opts: { raw?: boolean } = {}): Record<string, unknown> | undefined {
  let note: { files?: { path: string; ai_ranges?: { start: number; end: number }[]; ai_line_hashes?: string[] }[] };
  try {
    note = JSON.parse(git(root, 'notes', '--ref=agentnote', 'show', rev));
  } catch {
    return undefined;
  }
  if (opts.raw) return note;
  for (const f of note.files ?? []) {
    const lines = aiLineNumbers(f) ?? [];
    if (lines.length === 0 || f.ai_line_hashes === undefined) continue;
    const blob = git(root, 'show', `${rev}:${f.path}`).split('\n');
    const want = lines.map((l) => lineHash(blob[l - 1] ?? ''));
    // hashes that are not those of the commit's AI lines stay, so a comparison of `files[]` fails
    // (while a test waits, a note may still be git's stale copy of a rewritten commit's note)
    if (JSON.stringify(want) === JSON.stringify(f.ai_line_hashes)) delete f.ai_line_hashes;
  }
  return note;
}

export async function waitForNote(
  root: string,
  rev = 'HEAD',
  ms = 20_000,
): Promise<
  Record<string, unknown> & {
    attribution: { ai_ratio: number; method: string; lines?: { ai_added: number; total_added: number; deleted: number } };
    files: { path: string; by_ai: boolean; ai_ranges?: { start: number; end: number; interaction: number | null }[] }[];
    interactions: { prompt: string; response: string | null }[];
    agent: string;
  }
> {
  const deadline = Date.now() + ms;
  for (;;) {
    const n = noteOf(root, rev);
    if (n) return n as never;
    if (Date.now() > deadline) throw new Error(`no note for ${rev} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const claudeEnc = (p: string) => p.replace(/[^A-Za-z0-9]/g, '-');

/** A Claude Code session transcript (~/.claude/projects/<enc cwd>/<uuid>.jsonl) in the 2026 format. */
export class ClaudeSession {
  readonly id = randomUUID();
  readonly file: string;
  private n = 0;
  private parent: string | null = null;

  constructor(
    readonly cwd: string,
    readonly model = 'claude-sonnet-4-5',
    home = os.homedir(),
  ) {
    const dir = path.join(home, '.claude', 'projects', claudeEnc(cwd));
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, `${this.id}.jsonl`);
  }

  private append(rec: Record<string, unknown>): void {
    const uuid = `r${++this.n}`;
    const full = {
      ...rec,
      uuid,
      parentUuid: this.parent,
      sessionId: this.id,
      timestamp: new Date().toISOString(),
      cwd: this.cwd,
      version: '2.1.260',
      isSidechain: false,
    };
    this.parent = uuid;
    fs.appendFileSync(this.file, `${JSON.stringify(full)}\n`);
  }

  prompt(text: string): void {
    this.append({
      type: 'user',
      userType: 'external',
      promptSource: 'typed',
      origin: { kind: 'human' },
      message: { role: 'user', content: text },
    });
  }

  respond(text: string): void {
    this.append({
      type: 'assistant',
      message: { id: `msg_${this.n}`, type: 'message', role: 'assistant', model: this.model, content: [{ type: 'text', text }] },
    });
  }

  /**
   * Edit tool: replaces old by new in the file on disk, then records the tool call and its result.
   * With `diskEol: '\r\n'` the strings are recorded with LF (as the model wrote them) while the file
   * on disk keeps its CRLF line endings (as Claude Code writes them back).
   */
  edit(rel: string, oldString: string, newString: string, opts: { diskEol?: '\r\n' } = {}): void {
    const abs = path.join(this.cwd, rel);
    const original = fs.readFileSync(abs, 'utf8');
    const onDisk = (t: string) => (opts.diskEol ? t.replace(/\r?\n/g, opts.diskEol) : t);
    if (!original.includes(onDisk(oldString))) throw new Error(`old_string not found in ${rel}`);
    const id = `toolu_${randomUUID().slice(0, 8)}`;
    this.append({
      type: 'assistant',
      message: {
        id: `msg_${this.n}`,
        type: 'message',
        role: 'assistant',
        model: this.model,
        content: [{ type: 'tool_use', id, name: 'Edit', input: { file_path: abs, old_string: oldString, new_string: newString } }],
      },
    });
    fs.writeFileSync(abs, original.replace(onDisk(oldString), onDisk(newString)));
    this.append({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `The file ${abs} has been updated.` }] },
      toolUseResult: {
        filePath: abs,
        oldString,
        newString,
        originalFile: original,
        structuredPatch: [],
        userModified: false,
        replaceAll: false,
      },
    });
  }

  /** Write tool: creates/overwrites the file on disk. */
  write(rel: string, content: string): void {
    const abs = path.join(this.cwd, rel);
    const existed = fs.existsSync(abs);
    const original = existed ? fs.readFileSync(abs, 'utf8') : undefined;
    const id = `toolu_${randomUUID().slice(0, 8)}`;
    this.append({
      type: 'assistant',
      message: {
        id: `msg_${this.n}`,
        type: 'message',
        role: 'assistant',
        model: this.model,
        content: [{ type: 'tool_use', id, name: 'Write', input: { file_path: abs, content } }],
      },
    });
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
    this.append({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `File created successfully at: ${abs}` }] },
      toolUseResult: {
        type: existed ? 'update' : 'create',
        filePath: abs,
        content,
        structuredPatch: [],
        ...(original !== undefined ? { originalFile: original } : {}),
      },
    });
  }
}

/** A Cursor agent transcript (~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl). */
export class CursorSession {
  readonly id = randomUUID();
  readonly file: string;

  constructor(
    readonly cwd: string,
    home = os.homedir(),
  ) {
    const slug = cwd.replace(/^[/\\]+/, '').replace(/[^A-Za-z0-9]+/g, '-');
    const projectDir = path.join(home, '.cursor', 'projects', slug);
    const dir = path.join(projectDir, 'agent-transcripts', this.id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(projectDir, '.workspace-trusted'),
      JSON.stringify({ trustedAt: Date.now(), workspacePath: cwd, trustMethod: 'user' }),
    );
    this.file = path.join(dir, `${this.id}.jsonl`);
  }

  private append(rec: Record<string, unknown>): void {
    fs.appendFileSync(this.file, `${JSON.stringify(rec)}\n`);
  }

  prompt(text: string): void {
    this.append({ role: 'user', message: { content: [{ type: 'text', text: `<user_query>\n${text}\n</user_query>` }] } });
  }

  respond(text: string): void {
    this.append({ role: 'assistant', message: { content: [{ type: 'text', text }] } });
  }

  /** Records a StrReplace tool call (the edit itself is applied through the editor by the test). */
  strReplace(rel: string, oldString: string, newString: string): void {
    this.append({
      role: 'assistant',
      message: {
        content: [
          { type: 'tool_use', name: 'StrReplace', input: { path: path.join(this.cwd, rel), old_string: oldString, new_string: newString } },
        ],
      },
    });
  }

  write(rel: string, contents: string): void {
    this.append({
      role: 'assistant',
      message: { content: [{ type: 'tool_use', name: 'Write', input: { path: path.join(this.cwd, rel), contents } }] },
    });
  }
}

/** A Codex CLI rollout ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<uuid>.jsonl) with apply_patch edits. */
export class CodexSession {
  readonly id = randomUUID();
  readonly file: string;

  constructor(
    readonly cwd: string,
    readonly model = 'gpt-5.1-codex',
    home = os.homedir(),
  ) {
    const now = new Date();
    const dir = path.join(
      home,
      '.codex',
      'sessions',
      String(now.getFullYear()),
      String(now.getMonth() + 1).padStart(2, '0'),
      String(now.getDate()).padStart(2, '0'),
    );
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, `rollout-${now.toISOString().slice(0, 19).replace(/:/g, '-')}-${this.id}.jsonl`);
    this.append('session_meta', {
      id: this.id,
      timestamp: now.toISOString(),
      cwd,
      originator: 'codex-tui',
      cli_version: '0.150.0',
      source: 'cli',
      model_provider: 'openai',
    });
    this.append('turn_context', {
      turn_id: randomUUID(),
      cwd,
      model,
      approval_policy: 'on-request',
      sandbox_policy: { type: 'workspace-write' },
    });
  }

  private append(type: string, payload: Record<string, unknown>): void {
    fs.appendFileSync(this.file, `${JSON.stringify({ timestamp: new Date().toISOString(), type, payload })}\n`);
  }

  prompt(text: string): void {
    this.append('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    this.append('event_msg', { type: 'user_message', message: text, images: [] });
  }

  respond(text: string): void {
    this.append('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
    this.append('event_msg', { type: 'agent_message', message: text });
  }

  /** apply_patch that renames `from` to `to` and gives it `content` (old content read from disk), done on disk. */
  movePatch(from: string, to: string, content: string): void {
    const absFrom = path.join(this.cwd, from);
    const absTo = path.join(this.cwd, to);
    const before = fs.readFileSync(absFrom, 'utf8');
    const { hunk, unified } = updatePatchHunk(before, content);
    const patch = `*** Begin Patch\n*** Update File: ${from}\n*** Move to: ${to}\n${hunk}*** End Patch\n`;
    const callId = `call_${randomUUID().slice(0, 8)}`;
    this.append('response_item', { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: patch });
    fs.mkdirSync(path.dirname(absTo), { recursive: true });
    fs.writeFileSync(absTo, content);
    fs.rmSync(absFrom);
    this.append('event_msg', {
      type: 'patch_apply_end',
      call_id: callId,
      stdout: `Success. Updated the following files:\nM ${to}\n`,
      stderr: '',
      success: true,
      changes: { [absFrom]: { type: 'update', unified_diff: unified, move_path: absTo } },
      status: 'completed',
    });
  }

  /** apply_patch that updates `rel` to `content` (old content read from disk), done on disk. */
  updateFile(rel: string, content: string): void {
    const abs = path.join(this.cwd, rel);
    const before = fs.readFileSync(abs, 'utf8');
    const { hunk, unified } = updatePatchHunk(before, content);
    const patch = `*** Begin Patch\n*** Update File: ${rel}\n${hunk}*** End Patch\n`;
    const callId = `call_${randomUUID().slice(0, 8)}`;
    this.append('response_item', { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: patch });
    fs.writeFileSync(abs, content);
    this.append('event_msg', {
      type: 'patch_apply_end',
      call_id: callId,
      stdout: `Success. Updated the following files:\nM ${rel}\n`,
      stderr: '',
      success: true,
      changes: { [abs]: { type: 'update', unified_diff: unified, move_path: null } },
      status: 'completed',
    });
  }

  /** apply_patch that adds a new file, written to disk. */
  addFile(rel: string, content: string): void {
    const lines = content.replace(/\n$/, '').split('\n');
    const patch = `*** Begin Patch\n*** Add File: ${rel}\n${lines.map((l) => `+${l}`).join('\n')}\n*** End Patch\n`;
    const callId = `call_${randomUUID().slice(0, 8)}`;
    this.append('response_item', { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: patch });
    const abs = path.join(this.cwd, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
    this.append('event_msg', {
      type: 'patch_apply_end',
      call_id: callId,
      stdout: `Success. Updated the following files:\nA ${rel}\n`,
      stderr: '',
      success: true,
      changes: { [abs]: { type: 'add', content } },
      status: 'completed',
    });
  }
}

/** The apply_patch text of one updated (optionally moved) file: whole-file hunk, ` `/`-`/`+` lines. */
function updatePatchHunk(before: string, after: string): { hunk: string; unified: string } {
  const a = before.replace(/\n$/, '').split('\n');
  const b = after.replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const lines = [
    ...a.slice(0, head).map((l) => ` ${l}`),
    ...a.slice(head, a.length - tail).map((l) => `-${l}`),
    ...b.slice(head, b.length - tail).map((l) => `+${l}`),
    ...a.slice(a.length - tail).map((l) => ` ${l}`),
  ];
  return { hunk: `@@\n${lines.join('\n')}\n`, unified: `@@ -1,${a.length} +1,${b.length} @@\n${lines.join('\n')}\n` };
}

/** A Gemini CLI chat (~/.gemini/tmp/<slug>/chats/session-….jsonl) with replace/write_file tool calls. */
export class GeminiSession {
  readonly id = randomUUID();
  readonly file: string;
  private n = 0;

  constructor(
    readonly cwd: string,
    readonly model = 'gemini-2.5-pro',
    home = os.homedir(),
  ) {
    const slug =
      path
        .basename(cwd)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'project';
    const dir = path.join(home, '.gemini', 'tmp', slug);
    fs.mkdirSync(path.join(dir, 'chats'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.project_root'), cwd);
    const now = new Date();
    this.file = path.join(dir, 'chats', `session-${now.toISOString().slice(0, 16).replace(/:/g, '-')}-${this.id.slice(0, 8)}.jsonl`);
    fs.appendFileSync(
      this.file,
      `${JSON.stringify({ sessionId: this.id, projectHash: 'demo', startTime: now.toISOString(), lastUpdated: now.toISOString(), kind: 'main' })}\n`,
    );
  }

  private append(rec: Record<string, unknown>): void {
    fs.appendFileSync(this.file, `${JSON.stringify({ id: `m${++this.n}`, timestamp: new Date().toISOString(), ...rec })}\n`);
  }

  prompt(text: string): void {
    this.append({ type: 'user', content: [{ text }], displayContent: text });
  }

  /** replace tool: edits the file on disk and records the call with its before/after. */
  replace(rel: string, oldString: string, newString: string, response: string): void {
    const abs = path.join(this.cwd, rel);
    const original = fs.readFileSync(abs, 'utf8');
    const updated = original.replace(oldString, newString);
    fs.writeFileSync(abs, updated);
    this.append({
      type: 'gemini',
      content: response,
      model: this.model,
      toolCalls: [
        {
          id: `replace-${this.n}`,
          name: 'replace',
          args: { file_path: abs, old_string: oldString, new_string: newString },
          status: 'success',
          timestamp: new Date().toISOString(),
          resultDisplay: { fileName: path.basename(rel), filePath: abs, originalContent: original, newContent: updated, isNewFile: false },
        },
      ],
    });
  }
}

/** `12/7/2026, 11:05:09 PM (UTC, UTC+0:00)`: the `# Current Time` line of Cline's environment details, in UTC. */
function clineTime(d: Date): string {
  const h = d.getUTCHours();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}, ${h % 12 || 12}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'} (UTC, UTC+0:00)`;
}

/**
 * A Cline task folder (`<User>/globalStorage/saoudrizwan.claude-dev/tasks/<ms>/`) as Cline 3.x
 * writes it: `api_conversation_history.json` (native tool calls, results as text blocks with
 * `<final_file_content>`), `ui_messages.json` and `task_metadata.json`, each rewritten whole on every
 * change. The edit itself is applied through the editor by the test, as Cline's diff view does.
 */
export class ClineTask {
  readonly id: string;
  readonly dir: string;
  readonly file: string;
  private readonly messages: unknown[] = [];
  private readonly ui: unknown[] = [];
  private tools = 0;

  constructor(
    readonly cwd: string,
    userDir: string,
    readonly extensionId = 'saoudrizwan.claude-dev',
    readonly model = 'claude-sonnet-4-5-20250929',
  ) {
    this.id = String(Date.now() + Math.floor(Math.random() * 1000));
    this.dir = path.join(userDir, 'globalStorage', extensionId, 'tasks', this.id);
    fs.mkdirSync(this.dir, { recursive: true });
    this.file = path.join(this.dir, 'api_conversation_history.json');
  }

  private env(): string {
    return `<environment_details>\n# Visual Studio Code Visible Files\n(No visible files)\n\n# Current Time\n${clineTime(new Date())}\n\n# Current Working Directory (${this.cwd}) Files\n.gitignore\n\n# Current Mode\nACT MODE\n</environment_details>`;
  }

  private save(): void {
    // Cline writes each file whole (JSON.stringify of its in-memory array)
    fs.writeFileSync(path.join(this.dir, 'ui_messages.json'), JSON.stringify(this.ui));
    fs.writeFileSync(
      path.join(this.dir, 'task_metadata.json'),
      JSON.stringify({
        files_in_context: [],
        model_usage: [{ ts: Date.now(), model_id: this.model, model_provider_id: 'anthropic', mode: 'act' }],
      }),
    );
    fs.writeFileSync(this.file, JSON.stringify(this.messages));
  }

  task(text: string): void {
    this.ui.push({ ts: Date.now(), type: 'say', say: 'text', text, conversationHistoryIndex: -1 });
    this.messages.push({
      role: 'user',
      content: [
        { type: 'text', text: `<task>\n${text}\n</task>` },
        { type: 'text', text: this.env() },
      ],
    });
    this.save();
  }

  /** The model's `replace_in_file` call and, in the next user message, its result with the file as saved. */
  replaceInFile(rel: string, search: string, replace: string, saved: string, say = 'Updating the file.'): void {
    this.toolCall(
      'replace_in_file',
      { absolutePath: path.join(this.cwd, rel), diff: `------- SEARCH\n${search}=======\n${replace}+++++++ REPLACE` },
      rel,
      saved,
      say,
    );
  }

  writeToFile(rel: string, content: string, say = 'Writing the file.'): void {
    this.toolCall('write_to_file', { absolutePath: path.join(this.cwd, rel), content }, rel, content, say);
  }

  private toolCall(name: string, input: Record<string, unknown>, rel: string, saved: string, say: string): void {
    const id = `toolu_${this.id}_${++this.tools}`;
    const abs = path.join(this.cwd, rel);
    this.ui.push({
      ts: Date.now(),
      type: 'say',
      say: 'tool',
      text: JSON.stringify({ tool: 'editedExistingFile', path: rel, content: input.diff ?? input.content }),
    });
    this.messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: say },
        { type: 'tool_use', id, name, input },
      ],
      modelInfo: { modelId: this.model, providerId: 'anthropic', mode: 'act' },
      metrics: { tokens: { prompt: 100, completion: 20, cached: 0 } },
    });
    this.messages.push({
      role: 'user',
      content: [
        {
          type: 'text',
          text: `[${name} for '${abs}'] Result:\nThe content was successfully saved to ${abs}.\n\nHere is the full, updated content of the file that was saved:\n\n<final_file_content path="${abs}">\n${saved}\n</final_file_content>\n\nIMPORTANT: For any future changes to this file, use the final_file_content shown above as your reference.\n\n`,
        },
        { type: 'text', text: this.env() },
      ],
    });
    this.save();
  }

  /** `attempt_completion`: the final answer. */
  complete(result: string): void {
    this.messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `toolu_${this.id}_${++this.tools}`, name: 'attempt_completion', input: { result } }],
      modelInfo: { modelId: this.model },
    });
    this.save();
  }
}

/**
 * Aider's `.aider.chat.history.md` in the repository, appended as aider does: the typed prompt
 * (`#### ` lines ending in two spaces), the model's reply with SEARCH/REPLACE blocks, then aider's
 * `> Applied edit to` lines once it wrote the files (the test writes them, as aider does, on disk).
 */
export class AiderHistory {
  readonly file: string;

  constructor(
    readonly root: string,
    readonly model = 'openrouter/anthropic/claude-sonnet-4',
  ) {
    this.file = path.join(root, '.aider.chat.history.md');
    const d = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    fs.appendFileSync(
      this.file,
      `\n# aider chat started at ${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}\n\n> aider --model ${model}  \n> Aider v0.86.1  \n> Model: ${model} with diff edit format  \n> Git repo: .git with 3 files  \n\n`,
    );
  }

  prompt(text: string): void {
    fs.appendFileSync(
      this.file,
      text
        .split('\n')
        .map((l) => `#### ${l}  \n`)
        .join('') + '\n',
    );
  }

  /** The reply with one SEARCH/REPLACE block (lines `\n`-terminated), then the edit on disk, then `Applied edit`. */
  searchReplace(rel: string, search: string, replace: string, say = 'Here is the change:'): void {
    fs.appendFileSync(this.file, `${say}\n\n${rel}\n\`\`\`\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\`\n\n`);
    const abs = path.join(this.root, rel);
    const before = fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : '';
    fs.writeFileSync(abs, search === '' ? before + replace : before.replace(search, replace));
    fs.appendFileSync(
      this.file,
      `> Tokens: 2.4k sent, 104 received. Cost: $0.00042 message, $0.00042 session.  \n> Applied edit to ${rel}  \n\n`,
    );
  }
}
