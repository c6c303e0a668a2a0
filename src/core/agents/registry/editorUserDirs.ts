import * as posix from 'node:path/posix';

/**
 * Where VS Code-family editors keep their user data (`<User>`: `globalStorage/`, `workspaceStorage/`),
 * for agents that live inside an editor (Copilot Chat, Cline, Roo Code, Kilo Code). The agent may be
 * used in another editor than the one running Agent Note, so every flavour's default folder is a
 * candidate; the running editor's own folder (from its extension context) comes first.
 * (docs/transcripts.md, "Editor storage").
 */
/** What the running editor says about its own storage (from its extension context). */
export interface EditorStorage {
  /** The running editor's `<User>` folder (parent of the extension's `globalStorage/<id>`). */
  userDir?: string;
  /** This window's `workspaceStorage/<id>` folder (parent of the extension's storage folder). */
  workspaceStorageDir?: string;
  /**
   * Storage folders an editor extension was moved to by its own setting, keyed by the setting's name
   * (`roo-cline.customStoragePath` → `/data/roo`); read by the host, which alone sees settings.
   */
  customStoragePaths?: Readonly<Record<string, string>>;
}

export type EditorFlavour = 'VS Code' | 'VS Code Insiders' | 'Cursor' | 'VSCodium' | 'Windsurf' | 'code-server' | 'remote';

export interface EditorUserDir {
  flavour: EditorFlavour | 'this editor';
  /** Absolute `<User>` folder (it holds `globalStorage` and `workspaceStorage`). */
  dir: string;
}

/** The application folder names of the desktop flavours (the same on every OS). */
const desktop: readonly [EditorFlavour, string][] = [
  ['VS Code', 'Code'],
  ['VS Code Insiders', 'Code - Insiders'],
  ['Cursor', 'Cursor'],
  ['VSCodium', 'VSCodium'],
  ['Windsurf', 'Windsurf'],
];

export interface EditorUserDirOptions {
  platform: 'linux' | 'darwin' | 'win32' | string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The running editor's `<User>` folder, when known (first in the result). */
  current?: string;
}

/**
 * Every candidate `<User>` folder, without duplicates: the running editor's, then the desktop
 * flavours' default folders for the platform (`%APPDATA%\<App>\User`,
 * `~/Library/Application Support/<App>/User`, `${XDG_CONFIG_HOME:-~/.config}/<App>/User`), then
 * code-server's (`~/.local/share/code-server/User`) and the remote servers'
 * (`~/.vscode-server/data/User`, `~/.cursor-server/data/User`). Not checked for existence.
 */
export function editorUserDirs(opts: EditorUserDirOptions): EditorUserDir[] {
  const win = opts.platform === 'win32';
  const join = (...parts: string[]) => (win ? parts.join('\\').replace(/\\+/g, '\\') : posix.join(...parts));
  const out: EditorUserDir[] = [];
  const add = (flavour: EditorUserDir['flavour'], dir: string | undefined) => {
    if (!dir) return;
    const key = win || opts.platform === 'darwin' ? dir.toLowerCase() : dir;
    if (!out.some((d) => (win || opts.platform === 'darwin' ? d.dir.toLowerCase() : d.dir) === key)) out.push({ flavour, dir });
  };
  add('this editor', opts.current);
  const appData = nonEmpty(opts.env.APPDATA) ?? (win ? join(opts.homeDir, 'AppData', 'Roaming') : undefined);
  const base = win
    ? appData
    : opts.platform === 'darwin'
      ? posix.join(opts.homeDir, 'Library', 'Application Support')
      : (nonEmpty(opts.env.XDG_CONFIG_HOME) ?? posix.join(opts.homeDir, '.config'));
  if (base) for (const [flavour, app] of desktop) add(flavour, join(base, app, 'User'));
  if (!win) {
    add('code-server', posix.join(nonEmpty(opts.env.XDG_DATA_HOME) ?? posix.join(opts.homeDir, '.local', 'share'), 'code-server', 'User'));
    add('remote', posix.join(opts.homeDir, '.vscode-server', 'data', 'User'));
    add('remote', posix.join(opts.homeDir, '.vscode-remote', 'data', 'User'));
    add('remote', posix.join(opts.homeDir, '.cursor-server', 'data', 'User'));
  }
  return out;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v : undefined;
}
