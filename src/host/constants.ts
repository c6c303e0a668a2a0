/** Command ids (contributed in package.json). */
export const commands = {
  showNote: 'agentNote.showNote',
  showTimeline: 'agentNote.showTimeline',
  copyPrReport: 'agentNote.copyPrReport',
  exportDashboard: 'agentNote.exportDashboard',
  installGitHooks: 'agentNote.installGitHooks',
  removeGitHooks: 'agentNote.removeGitHooks',
  copyPrompt: 'agentNote.copyPrompt',
  showLog: 'agentNote.showLog',
  showStatus: 'agentNote.showStatus',
  reportIssue: 'agentNote.reportIssue',
} as const;

export type CommandId = (typeof commands)[keyof typeof commands];

/** Commands allowed in trusted hover/CodeLens command links. */
export const linkableCommands: readonly CommandId[] = [commands.showNote, commands.showTimeline, commands.copyPrompt];

/** Context keys set with setContext. */
export const contextKeys = {
  hasRepository: 'agentNote.hasRepository',
  /** A transcript of an enabled agent is tailed in a repository of the workspace (walkthrough). */
  agentDetected: 'agentNote.agentDetected',
  /** A repository of the workspace has a commit with a note (walkthrough). */
  hasNote: 'agentNote.hasNote',
} as const;
