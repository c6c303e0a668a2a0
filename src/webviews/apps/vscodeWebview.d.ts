/** The API VS Code injects into webviews (acquireVsCodeApi may be called once per page). */
interface VsCodeWebviewApi<State = unknown> {
  postMessage(message: unknown): void;
  getState(): State | undefined;
  setState(state: State): State;
}

declare function acquireVsCodeApi<State = unknown>(): VsCodeWebviewApi<State>;
