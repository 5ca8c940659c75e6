import { sql } from 'kysely';
import type { Database } from './open';

/** One round trip to the database (a readiness probe): resolves when it answers. */
export async function pingDatabase(db: Database): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}
