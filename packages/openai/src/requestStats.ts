/**
 * What an engine sent, counted: every request sent (`attempts`, retries
 * included), the retries among them, the answers that said "busy" (429 or
 * 503, the way a server with a full queue sheds load), and the busy answers
 * handed to an interactive job at once instead of retried.
 */
export interface RequestStats {
  attempts: number;
  retries: number;
  busy: number;
  surfaced: number;
}
