import type { TranscriptPathInfo } from '../../transcripts/transcriptPathInfo';
import type { TranscriptContext, TranscriptParser } from '../parserTypes';
import type { AgentId } from './agentIds';

/**
 * Where an agent keeps its session files: a home folder of its own under the user's home
 * (`~/.claude`), optionally moved by an environment variable. Discovery joins the parts with the
 * platform's path rules (src/node/transcripts/transcriptLocations.ts).
 */
export interface AgentHomeStore {
  kind: 'agentHome';
  /** The home folder's name under the user's home directory (`.claude`). */
  dirName: string;
  /** The environment variable that moves it (`CLAUDE_CONFIG_DIR`). */
  envVar?: string;
  /**
   * `home`: the variable names the agent's home itself (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`);
   * `parent`: it names the folder that holds `dirName` (`GEMINI_CLI_HOME`).
   */
  envNames?: 'home' | 'parent';
  /** The sessions folder inside the home (`projects`, `sessions`, `tmp`). */
  sessionsDir: string;
  /**
   * How discovery tells which sessions belong to a repository (docs/transcripts.md, per agent):
   * a scan strategy of src/node/transcripts/transcriptDiscovery.ts.
   */
  layout: 'claudeProjects' | 'cursorProjects' | 'codexSessions' | 'geminiTmp';
}

/**
 * Where an agent that lives in a VS Code-family editor keeps its sessions: a folder in each
 * workspace's storage (`<User>/workspaceStorage/<id>/<dirName>/`), found from this window's storage
 * folder and from every editor user folder's workspaces whose `workspace.json` names this
 * repository (src/node/transcripts/transcriptDiscovery.ts).
 */
export interface WorkspaceStorageStore {
  kind: 'workspaceStorage';
  /** The folder inside `workspaceStorage/<id>/` (`chatSessions`). */
  dirName: string;
  /** The scan strategy of src/node/transcripts/transcriptDiscovery.ts. */
  layout: 'copilotChatSessions';
}

/**
 * Sessions kept by an editor extension in its global storage: `<User>/globalStorage/<id>/tasks/<task>/`
 * for every candidate editor user folder (src/core/agents/registry/editorUserDirs.ts), one folder
 * per task with a whole-file JSON history (Cline and its forks, docs/transcripts.md §6).
 */
export interface EditorExtensionStore {
  kind: 'editorExtension';
  /** The extension ids whose storage folder is read (`saoudrizwan.claude-dev`). */
  extensionIds: readonly string[];
  /** The folder of task folders inside the extension's storage. */
  sessionsDir: 'tasks';
  /** The session file inside a task folder. */
  sessionFile: 'api_conversation_history.json';
  /**
   * The extension's own setting that moves its storage (`roo-cline.customStoragePath`): read by the
   * host and passed down in `EditorStorage.customStoragePaths`, keyed by this setting's name.
   */
  customStoragePathSetting?: string;
  layout: 'clineTasks';
}

/** A session file the agent keeps in the repository's work tree (`.aider.chat.history.md`). */
export interface RepositoryFileStore {
  kind: 'repositoryFile';
  fileName: string;
  layout: 'repositoryFile';
}

export type SessionStore = AgentHomeStore | WorkspaceStorageStore | EditorExtensionStore | RepositoryFileStore;

/** One file-editing tool of an agent and what its arguments carry. */
export interface EditToolSpec {
  /** The tool's name as the transcript writes it. */
  name: string;
  /**
   * `replace`: old and new string (one or several); `write`: the whole new contents; `patch`: a
   * patch text (apply_patch or unified diff); `notebook`: a notebook cell; `delete`: removes the file;
   * `insert`: new lines inserted at a line number.
   */
  shape: 'replace' | 'write' | 'patch' | 'notebook' | 'delete' | 'insert';
  /** The argument names read (the first one present wins). */
  args: readonly string[];
}

/**
 * Everything the extension knows about one agent, in one place (docs/architecture.md, "Adding an
 * agent"). The registry (./registry.ts) lists one per agent; discovery, tailing, the status bar,
 * the timeline, the settings and the docs read from it.
 */
export interface AgentDefinition<Id extends AgentId = AgentId> {
  readonly id: Id;
  /** Shown in the hover, the status bar, Show Status and the timeline. */
  readonly displayName: string;
  /** The codicon of its sessions in the status bar and the timeline. */
  readonly codicon: string;
  /** Its on/off setting under `agentNote.` (contributed in package.json, on by default). */
  readonly settingKey: string;
  /** Where its sessions live. */
  readonly store: SessionStore;
  /** What a transcript's path says: session id, subagent file, format. */
  pathInfo(filePath: string): TranscriptPathInfo;
  /** A parser for one transcript file (the variant is chosen from the path). */
  createParser(ctx: TranscriptContext): TranscriptParser;
  /** Its file-editing tools. */
  readonly editTools: readonly EditToolSpec[];
  /**
   * `disk`: the agent writes files itself (a CLI) and the watcher sees the change on disk;
   * `editor`: it edits through the editor's API (workspace edits), so the editor's change events
   * carry its edits.
   */
  readonly editsArrive: 'disk' | 'editor';
}
