/**
 * What a replica does when Redis is away: the operation's local stand-in, and one line in the log
 * when Redis goes (with what the host does meanwhile) and one when it is back.
 */
export class RedisFallback {
  private warned = false;

  constructor(
    private readonly log: (line: string) => void,
    /** What the host does without Redis ("answers from its own cache only …"), and what resumes when it is back. */
    private readonly meanwhile: string,
    private readonly resumed: string,
  ) {}

  async run<T>(op: () => Promise<T>, otherwise: () => T | Promise<T>): Promise<T> {
    try {
      const result = await op();
      if (this.warned) {
        this.warned = false;
        this.log(`Redis is back: ${this.resumed}`);
      }
      return result;
    } catch (e) {
      if (!this.warned) {
        this.warned = true;
        this.log(`Redis is unreachable (${(e as Error).message}): ${this.meanwhile}`);
      }
      return otherwise();
    }
  }
}
