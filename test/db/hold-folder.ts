/** A second process holding an embedded database open (test/db/pglite.test.ts): opens argv[2], says so, closes on SIGTERM. */
import { openDatabase } from '../../src/db';

const db = await openDatabase(process.argv[2]!);
process.stdout.write(`open by ${process.pid}\n`);
process.once('SIGTERM', () => {
  void db.close().then(() => process.exit(0));
});
setInterval(() => {}, 1 << 30);
