import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './host';

/** Editor-side steps of the in-host attribution tests: what a person (or an editor-based agent) does. */

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Opens `abs` in an editor (the active one) and waits until its buffer equals the file on disk. */
export async function showFile(abs: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs));
  const editor = await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
  await inSyncWithDisk(doc);
  return editor;
}

/** Waits until the (saved) document shows what is on disk, e.g. after an agent wrote the file. */
export async function inSyncWithDisk(doc: vscode.TextDocument, ms = 15_000): Promise<void> {
  await waitFor(
    () => !doc.isDirty && fs.existsSync(doc.uri.fsPath) && doc.getText() === fs.readFileSync(doc.uri.fsPath, 'utf8'),
    ms,
    `${path.basename(doc.uri.fsPath)} in sync with disk`,
  );
}

/** Types `text` at (line, character) as the keyboard does (the `type` command, one call per chunk). */
export async function typeAt(editor: vscode.TextEditor, line: number, character: number, text: string): Promise<void> {
  await vscode.window.showTextDocument(editor.document, { preview: false, preserveFocus: false });
  const p = new vscode.Position(line, character);
  editor.selection = new vscode.Selection(p, p);
  for (const chunk of text.match(/\n|[^\n]{1,3}/g) ?? []) await vscode.commands.executeCommand('type', { text: chunk });
}

/** Selects [from, to) on `line` and types `text` over it. */
export async function retype(editor: vscode.TextEditor, line: number, from: number, to: number, text: string): Promise<void> {
  await vscode.window.showTextDocument(editor.document, { preview: false, preserveFocus: false });
  editor.selection = new vscode.Selection(new vscode.Position(line, from), new vscode.Position(line, to));
  for (const chunk of text.match(/[^\n]{1,3}|\n/g) ?? []) await vscode.commands.executeCommand('type', { text: chunk });
}

/** Pastes `text` at the start of `line` (one bulk insert, as a clipboard paste is). */
export async function pasteAt(editor: vscode.TextEditor, line: number, text: string): Promise<void> {
  await vscode.window.showTextDocument(editor.document, { preview: false, preserveFocus: false });
  const p = new vscode.Position(line, 0);
  editor.selection = new vscode.Selection(p, p);
  assert.ok(await editor.edit((b) => b.insert(p, text)));
}

/** Deletes whole line `line` with the editor's own command (Ctrl+Shift+K). */
export async function deleteLine(editor: vscode.TextEditor, line: number): Promise<void> {
  await vscode.window.showTextDocument(editor.document, { preview: false, preserveFocus: false });
  const p = new vscode.Position(line, 0);
  editor.selection = new vscode.Selection(p, p);
  await vscode.commands.executeCommand('editor.action.deleteLines');
}

/**
 * An editor-based agent's edit (Cursor, Copilot): a WorkspaceEdit replacing lines [from, to] of a
 * document by `lines`, then saved, as the agent applies and writes its change.
 */
export async function agentReplaceLines(doc: vscode.TextDocument, from: number, to: number, lines: string[]): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const range = new vscode.Range(from, 0, to, doc.lineAt(to).text.length);
  edit.replace(doc.uri, range, lines.join(doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n'));
  assert.ok(await vscode.workspace.applyEdit(edit), 'WorkspaceEdit applied');
  assert.ok(await doc.save(), 'saved');
}

/** The hover text our provider gives at 1-based `line` of `abs`. */
export async function hoverText(abs: string, line: number): Promise<string> {
  const uri = vscode.Uri.file(abs);
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line - 1, 1))) ?? [];
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))
    .join('\n');
}

/** Waits until the hover at `line` mentions Agent Note's verdict on the line (AI or person) and returns it. */
export async function lineVerdict(abs: string, line: number, ms = 15_000): Promise<string> {
  return waitFor(
    async () => {
      const t = await hoverText(abs, line);
      return /written by (the AI|a person)/.test(t) ? t : undefined;
    },
    ms,
    `hover verdict on ${path.basename(abs)}:${line}`,
  );
}
