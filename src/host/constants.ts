/** Command ids (contributed in package.json). */
export const commands = {
  showNote: 'agentNote.showNote',
  showTimeline: 'agentNote.showTimeline',
  copyPrReport: 'agentNote.copyPrReport',
  installGitHooks: 'agentNote.installGitHooks',
  removeGitHooks: 'agentNote.removeGitHooks',
  copyPrompt: 'agentNote.copyPrompt',
  showLog: 'agentNote.showLog',
} as const;

export type CommandId = (typeof commands)[keyof typeof commands];

/** Commands allowed in trusted hover/CodeLens command links. */
export const linkableCommands: readonly CommandId[] = [commands.showNote, commands.showTimeline, commands.copyPrompt];

/** Context keys set with setContext. */
export const contextKeys = {
  hasRepository: 'agentNote:hasRepository',
} as const;
