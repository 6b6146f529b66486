import { expect } from 'vitest';
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

/** A setting, a bad value for it, and the problem `loadConfig` names for it, word for word. */
export type BadSetting = [name: string, value: string, problem: string];

/** Gives the bad settings together and asserts that `loadConfig` refuses them, naming each problem once. */
export function expectProblems(bad: BadSetting[]): string[] {
  const env = Object.fromEntries(bad.map(([name, value]) => [name, value]));
  expect(() => loadConfig(env)).toThrow(ConfigError);
  const problems = configProblems(env);
  expect([...problems].sort()).toEqual(bad.map(([, , problem]) => problem).sort());
  return problems;
}
