import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/**
 * The schema's versions, in code (nothing read from disk at run time, so a bundled tool carries
 * them). Applied in name order on open; each one once, recorded in kysely_migration. Kysely's
 * Migrator takes a Postgres advisory lock (kysely_migration_lock) for the whole migration, so two
 * processes opening the same fresh server at once apply each migration once, the second waiting.
 * Never edit a migration that has shipped: add the next one.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_history': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('runs')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('finished_at', 'timestamptz')
        .addColumn('tool_version', 'text', (c) => c.notNull())
        .addColumn('service_url', 'text', (c) => c.notNull())
        .addColumn('sandbox', 'boolean', (c) => c.notNull())
        .addColumn('command', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('portfolios')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .execute();
      await db.schema
        .createTable('month_ends')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('portfolio_id', 'integer', (c) => c.notNull().references('portfolios.id').onDelete('cascade'))
        .addColumn('as_of', 'date', (c) => c.notNull())
        .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id'))
        .addColumn('currency', 'char(3)', (c) => c.notNull())
        .addColumn('value', 'numeric', (c) => c.notNull())
        .addColumn('net_flows', 'numeric', (c) => c.notNull())
        .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('month_ends_portfolio_as_of', ['portfolio_id', 'as_of'])
        .execute();
      await db.schema
        .createTable('holding_valuations')
        .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('month_end_id', 'integer', (c) => c.notNull().references('month_ends.id').onDelete('cascade'))
        .addColumn('row', 'integer', (c) => c.notNull())
        .addColumn('asset_id', 'text')
        .addColumn('description', 'text')
        .addColumn('quantity', 'numeric')
        .addColumn('value_mid', 'numeric', (c) => c.notNull())
        .addColumn('value_low', 'numeric')
        .addColumn('value_high', 'numeric')
        .addColumn('currency', 'char(3)', (c) => c.notNull())
        .addColumn('confidence', 'numeric')
        .addColumn('market_validated', 'boolean')
        .addColumn('valuation_id', 'text')
        .execute();
      await db.schema.createIndex('holding_valuations_month_end').on('holding_valuations').columns(['month_end_id', 'row']).execute();
      await db.schema
        .createTable('ledger_entries')
        .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('month_end_id', 'integer', (c) => c.notNull().references('month_ends.id').onDelete('cascade'))
        .addColumn('portfolio_id', 'integer', (c) => c.notNull().references('portfolios.id').onDelete('cascade'))
        .addColumn('date', 'date', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('buy', 'sell', 'fee', 'income', 'transfer_in', 'transfer_out')`))
        .addColumn('asset_id', 'text')
        .addColumn('quantity', 'numeric')
        .addColumn('amount', 'numeric', (c) => c.notNull())
        .addColumn('currency', 'char(3)', (c) => c.notNull())
        .addColumn('notes', 'text')
        .addColumn('source_file', 'text', (c) => c.notNull())
        .addColumn('source_sheet', 'text')
        .addColumn('source_row', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ledger_entries_month_end').on('ledger_entries').column('month_end_id').execute();
      await db.schema.createIndex('ledger_entries_portfolio_date').on('ledger_entries').columns(['portfolio_id', 'date']).execute();
    },
    async down(db: Kysely<any>) {
      for (const t of ['ledger_entries', 'holding_valuations', 'month_ends', 'portfolios', 'runs']) await db.schema.dropTable(t).execute();
    },
  },
  // Issue 25: reviewers' approvals and rejections of a run's reports, as the run's manifest records them.
  '0002_approvals': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('approvals')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('portfolio', 'text', (c) => c.notNull())
        .addColumn('report', 'text', (c) => c.notNull())
        .addColumn('as_of', 'date', (c) => c.notNull())
        .addColumn('decision', 'text', (c) => c.notNull().check(sql`decision in ('approved', 'rejected')`))
        .addColumn('decided_by', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'timestamptz', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('files', 'jsonb', (c) => c.notNull())
        .addColumn('certificate_sha256', 'text')
        .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('approvals_portfolio_as_of').on('approvals').columns(['portfolio', 'as_of']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('approvals').execute();
    },
  },
  // Issue 34: a ledger row's lot (specific identification) and the unit its quantity counts, with
  // the wine stock a case and its bottles share, so a recorded ledger matches its sales to the same
  // lots as the run did (a named lot, part of a case sold as bottles).
  '0003_ledger_lots_units': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('ledger_entries')
        .addColumn('lot', 'text')
        .addColumn('unit', 'text', (c) => c.check(sql`unit in ('case', 'bottle')`))
        .addColumn('stock_id', 'text')
        .addColumn('bottles_per_unit', 'integer', (c) => c.check(sql`bottles_per_unit > 0`))
        .execute();
      await db.schema.alterTable('ledger_entries').addCheckConstraint('ledger_entries_stock', sql`(stock_id is null) = (bottles_per_unit is null)`).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('ledger_entries').dropConstraint('ledger_entries_stock').execute();
      await db.schema.alterTable('ledger_entries').dropColumn('lot').dropColumn('unit').dropColumn('stock_id').dropColumn('bottles_per_unit').execute();
    },
  },
  // Issue 37: each holding's cover at the month-end (its insured value in the month-end's currency,
  // and the review's status), so a report can say since when an item has been under-insured.
  // Both null: the month-end had no insurance review (its files said nothing of cover).
  '0004_insurance': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('holding_valuations')
        .addColumn('insured_value', 'numeric')
        .addColumn('insurance_status', 'text', (c) => c.check(sql`insurance_status in ('under-insured', 'over-insured', 'covered', 'not-insured')`))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('holding_valuations').dropColumn('insured_value').dropColumn('insurance_status').execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the schema to the newest version; an error names the migration that failed. */
export async function migrate(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `the database's schema could not be brought up to date: migration ${failed} failed: ${why}` : `the database's schema could not be brought up to date: ${why}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations applied to this database, in order. */
export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  const rows = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
  return rows.map((r) => String(r.name));
}
