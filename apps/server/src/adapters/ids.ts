import { ObjectId } from 'bson';
import type { Clock } from './clock';

/** Makes ids: 24 lowercase hex characters, time-ordered (4 bytes of seconds, then random and counter bytes). */
export type IdGenerator = () => string;

export function createIdGenerator(clock: Clock): IdGenerator {
  return () => new ObjectId(ObjectId.generate(Math.floor(clock.now() / 1000))).toHexString();
}

const idPattern = /^[0-9a-f]{24}$/;

/** True for a well-formed id (docs/api.md): 24 lowercase hex characters. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && idPattern.test(value);
}
