/** The text around the caret that a ghost-text request is for. */
export interface GhostContext {
  /** The text before the caret. */
  readonly before: string;
  /** The text after the caret. */
  readonly after: string;
}
