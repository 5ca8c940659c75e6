import { DatabaseError } from './errors';
import { openDatabase, type Database, type DatabaseUser, type OpenOptions } from './open';
import { holdsDatabase, parseTarget } from './paths';
import { pingDatabase } from './ping';
import { redactUrl } from '../redact-url';

/**
 * The history database as a long-lived process or a command with phases uses it (issue 34): an
 * embedded folder is opened for each piece of work and closed after it, so it is held only while
 * history is read or recorded and another process can have it in between (work running at the
 * same time in this process shares one opening). A server's pool is opened at the first use and
 * kept: a server serves many processes at once, nobody waits on it, and its idle connections are
 * closed by the pool itself.
 */
export class HistoryDatabase implements DatabaseUser {
  readonly kind: Database['kind'];
  /** The folder, or the server's URL without its credentials: what messages name. */
  readonly where: string;
  private opening: Promise<Database> | undefined;
  private users = 0;
  private closing: Promise<void> = Promise.resolve();

  constructor(
    readonly target: string,
    private readonly options: OpenOptions = {},
  ) {
    const t = parseTarget(target);
    this.kind = t.kind;
    this.where = t.kind === 'postgres' ? redactUrl(t.url) : t.path;
  }

  async use<T>(work: (db: Database) => Promise<T>): Promise<T> {
    if (this.kind === 'postgres') return work(await this.server());
    this.users++;
    try {
      if (!this.opening) {
        await this.closing; // the last opening's lock released first: this process does not wait for itself
        this.opening ??= openDatabase(this.target, this.options);
      }
      return await work(await this.opening);
    } finally {
      if (--this.users === 0 && this.opening) {
        const done = this.opening;
        this.opening = undefined;
        this.closing = done.then((db) => db.close()).catch(() => {});
        await this.closing;
      }
    }
  }

  /**
   * Readiness: a server answers a `select 1`; an embedded folder is checked to hold a database
   * without taking it (a probe must not wait behind a month-end, nor make one wait).
   */
  async ping(): Promise<void> {
    if (this.kind === 'postgres') return pingDatabase(await this.server());
    if (!holdsDatabase(this.where)) throw new DatabaseError(`the folder ${this.where} holds no history database`);
  }

  async close(): Promise<void> {
    if (this.kind === 'postgres') {
      const open = this.opening;
      this.opening = undefined;
      await open?.then((db) => db.close()).catch(() => {});
      return;
    }
    await this.closing;
  }

  private server(): Promise<Database> {
    if (!this.opening) {
      const opening = openDatabase(this.target, this.options);
      // A failed opening is not kept: the next use tries again (the server may be back).
      opening.catch(() => {
        if (this.opening === opening) this.opening = undefined;
      });
      this.opening = opening;
    }
    return this.opening;
  }
}
