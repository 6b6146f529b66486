import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './0001-accounts';
import * as studyCore from './0002-study-core';
import * as generationQuota from './0004-generation-quota';

/**
 * The ordered list of migrations, imported statically so the server needs no directory scan at run time.
 * Add a new file and a new line here; never edit a migration that has landed.
 */
const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-study-core': studyCore,
  '0004-generation-quota': generationQuota,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
