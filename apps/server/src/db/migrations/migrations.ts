import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './0001-accounts';
import * as studyCore from './0002-study-core';
import * as studyCoreExtras from './0003-study-core-extras';
import * as generationQuota from './0004-generation-quota';
import * as billing from './0005-billing';
import * as cardManagement from './0006-card-management';
import * as timeZoneScheduling from './0007-time-zone-scheduling';
import * as mediaAndImports from './0008-media-and-imports';
import * as accountControls from './0009-account-controls';
import * as queueOrderIndexes from './0010-queue-order-indexes';
import * as mediaChunks from './0011-media-chunks';
import * as notes from './0012-notes';
import * as typedAnswers from './0013-typed-answers';
import * as cardImages from './0014-card-images';
import * as examDateReadAloud from './0015-exam-date-read-aloud';
import * as cardSources from './0016-card-sources';
import * as occlusion from './0019-occlusion';
import * as classes from './0020-classes';
import * as classCardStats from './0021-class-card-stats';
import * as cardSearchFastupdate from './0022-card-search-fastupdate';

/**
 * The ordered list of migrations, imported statically so the server needs no directory scan at run time.
 * Add a new file and a new line here; never edit a migration that has landed.
 */
const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-study-core': studyCore,
  '0003-study-core-extras': studyCoreExtras,
  '0004-generation-quota': generationQuota,
  '0005-billing': billing,
  '0006-card-management': cardManagement,
  '0007-time-zone-scheduling': timeZoneScheduling,
  '0008-media-and-imports': mediaAndImports,
  '0009-account-controls': accountControls,
  '0010-queue-order-indexes': queueOrderIndexes,
  '0011-media-chunks': mediaChunks,
  '0012-notes': notes,
  '0013-typed-answers': typedAnswers,
  '0014-card-images': cardImages,
  '0015-exam-date-read-aloud': examDateReadAloud,
  '0016-card-sources': cardSources,
  '0019-occlusion': occlusion,
  '0020-classes': classes,
  '0021-class-card-stats': classCardStats,
  '0022-card-search-fastupdate': cardSearchFastupdate,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
