import { type ChildExit, ChildSession, type SpawnStdioProviderOptions } from "./child-session.js";

/**
 * What a provider on a child session exposes the same way in both protocol
 * families (its id, pid, exit, correlation mode and stderr tail), read from
 * the session; a family adds its handshake, its requests and `onLine`.
 */
export abstract class ChildProvider<H, R> {
  protected readonly session: ChildSession<H, R>;

  constructor(options: SpawnStdioProviderOptions) {
    this.session = new ChildSession(options, (line) => this.onLine(line));
  }

  /** One line of the child's stdout, in the family's wire format. */
  protected abstract onLine(line: string): void;

  get id(): string {
    return this.session.id;
  }

  get pid(): number {
    return this.session.pid;
  }

  get exited(): Promise<ChildExit> {
    return this.session.exited;
  }

  get correlated(): boolean {
    return this.session.correlated;
  }

  stderr(): string {
    return this.session.stderr();
  }
}
