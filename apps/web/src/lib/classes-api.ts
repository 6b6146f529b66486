import type { ClassSummary } from '@flashcards/shared/api-types';
import { useApiGet } from './api-hooks';

/**
 * The class screens' own paths: /classes and /classes/{id} are the API's (GET /classes answers JSON to a page load),
 * so the screens live under /my-classes.
 */
export const classesPagePath = '/my-classes';

/** The page of one class. */
export function classPagePath(classId: string): string {
  return `${classesPagePath}/${encodeURIComponent(classId)}`;
}

/** Query keys of the class data; a class change also makes decks and cards stale (linked copies come and go). */
export const classKeys = {
  all: ['classes'] as const,
  detail: (id: string) => ['classes', id] as const,
  progress: (id: string) => ['classes', id, 'progress'] as const,
};

/** GET /classes: the classes the user teaches or attends (the deck list names a linked deck's class from it). */
export function useClasses() {
  return useApiGet<ClassSummary[]>(classKeys.all, '/classes');
}
