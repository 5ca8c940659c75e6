/** A second process holding an embedded database open (test/db/pglite.test.ts): opens argv[2], says so, closes on SIGTERM. */
import { openDatabase } from '../../src/db';

const db = await openDatabase(process.argv[2]!, { command: 'hold-folder' });
// Listening before saying so: the test signals as soon as it reads the line, which can be before
// this process runs its next statement.
process.once('SIGTERM', () => {
  void db.close().then(() => process.exit(0));
});
process.stdout.write(`open by ${process.pid}\n`);
setInterval(() => {}, 1 << 30);
