import { messages } from '@flashcards/shared/messages';
import { type ComponentProps, lazy, Suspense } from 'react';
import { loadChunk } from '../../lib/with-timeout';
import type { OcclusionNoteForm as Form } from './occlusion-note-form';

const OcclusionNoteForm = lazy(() =>
  loadChunk(() => import('./occlusion-note-form')).then((module) => ({ default: module.OcclusionNoteForm })),
);

/** The occlusion note form, its code (the mask editor) fetched the first time it is shown. */
export function LazyOcclusionNoteForm(props: ComponentProps<typeof Form>) {
  return (
    <Suspense fallback={<p role="status">{messages.loading}</p>}>
      <OcclusionNoteForm {...props} />
    </Suspense>
  );
}
