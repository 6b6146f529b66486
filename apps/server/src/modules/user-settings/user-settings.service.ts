import type { UserSettings } from '@flashcards/shared/api-types';
import type { Clock } from '../../adapters/clock';
import type { UsersRepo } from '../auth/users.repo';

/** The learner's own settings: for now the time zone of their study day. */
export function createUserSettingsService(deps: { users: UsersRepo; clock: Clock }) {
  return {
    async update(userId: string, settings: UserSettings): Promise<UserSettings> {
      await deps.users.setTimeZone(userId, settings.time_zone, deps.clock.now());
      return { time_zone: settings.time_zone };
    },
  };
}

export type UserSettingsService = ReturnType<typeof createUserSettingsService>;
