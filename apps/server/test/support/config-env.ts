import { ConfigError, loadConfig } from '../../src/config';

/** The problems `loadConfig` names for `env`; fails when the settings are accepted. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
