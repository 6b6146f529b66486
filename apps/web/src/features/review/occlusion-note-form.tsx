import { fillMessage, messages } from '@flashcards/shared/messages';
import { mediaUrl, type OcclusionFields, type OcclusionMode } from '@flashcards/shared/notes';
import { occlusionMessages } from '@flashcards/shared/occlusion-messages';
import { type ChangeEvent, type ReactNode, useEffect, useId, useReducer, useRef, useState } from 'react';
import { Notice } from '../../components/notice';
import { errorCode, errorDetail } from '../../lib/api-client';
import { CardFormShell } from './card-form-shell';
import { initialMaskState, maskReducer, masksOfBoxes, noteMasks } from './mask-editing';
import { MaskEditor } from './mask-editor';
import { useCreateNote, useUpdateNote } from './notes-api';
import { useSuggestMasks, useUploadImage } from './occlusion-api';
import { RadioChoice } from './radio-choice';

const acceptedImages = 'image/jpeg,image/png,image/webp,image/gif';

const modeOptions: readonly { value: OcclusionMode; label: string }[] = [
  { value: 'hide_one', label: occlusionMessages.modeHideOne },
  { value: 'hide_all', label: occlusionMessages.modeHideAll },
];

type Progress =
  | { step: 'idle' }
  | { step: 'uploading' }
  | { step: 'suggesting' }
  | { step: 'done'; tone: 'success' | 'info'; text: string };

interface OcclusionNoteFormProps {
  /** The note being edited (saved with PUT /notes/{id}); without it a new note is made in `deckId`. */
  note?: { id: string; fields: OcclusionFields };
  deckId?: string;
  /** For a new note: an image the user already has (a generated card's figure), its masks suggested at once. */
  startImage?: string;
  /** Above the image: the Add Card form's deck and note type choice, or why the editor opened. */
  before?: ReactNode;
  onDone: () => void;
}

/**
 * An image occlusion note: the image (uploaded here for a new note, with masks suggested from its labels), the
 * mask editor and the mode. Loaded on demand: the editor is its own chunk.
 */
export function OcclusionNoteForm({ note, deckId, startImage, before, onDone }: OcclusionNoteFormProps) {
  const fileId = useId();
  const [image, setImage] = useState<string | null>(note?.fields.image ?? null);
  const [mode, setMode] = useState<OcclusionMode>(note?.fields.mode ?? 'hide_one');
  const [masks, dispatch] = useReducer(maskReducer, note?.fields.masks ?? [], initialMaskState);
  const [progress, setProgress] = useState<Progress>({ step: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const upload = useUploadImage();
  const suggest = useSuggestMasks();
  const create = useCreateNote();
  const update = useUpdateNote();
  const saving = create.isPending || update.isPending;

  async function chooseImage(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setError(null);
    setTouched(true);
    setProgress({ step: 'uploading' });
    let name: string;
    try {
      name = (await upload.mutateAsync(file)).name;
    } catch (caught) {
      setProgress({ step: 'idle' });
      setError(errorDetail(caught, occlusionMessages.uploadFailed));
      return;
    }
    await suggestFor(name);
  }

  /** Shows `name` in the editor with the masks the server suggests from its labels. */
  async function suggestFor(name: string) {
    setImage(name);
    dispatch({ type: 'replace', masks: [] });
    setProgress({ step: 'suggesting' });
    try {
      const { boxes } = await suggest.mutateAsync(name);
      dispatch({ type: 'replace', masks: masksOfBoxes(boxes) });
      setProgress(
        boxes.length > 0
          ? { step: 'done', tone: 'success', text: fillMessage(occlusionMessages.suggested, { count: boxes.length }) }
          : { step: 'done', tone: 'info', text: occlusionMessages.noneSuggested },
      );
    } catch (caught) {
      const text =
        errorCode(caught) === 'rate_limited' ? occlusionMessages.suggestRateLimited : occlusionMessages.suggestFailed;
      setProgress({ step: 'done', tone: 'info', text });
    }
  }

  // A figure handed in is suggested once, when the form opens.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || note || !startImage) return;
    started.current = true;
    setTouched(true);
    void suggestFor(startImage);
  });

  async function save() {
    if (saving) return;
    if (!image) return setError(occlusionMessages.chooseImage);
    if (masks.masks.length === 0) return setError(messages.occlusionMasksMissing);
    if (!note && !deckId) return setError(messages.noDeckSelected);
    setError(null);
    const fields: OcclusionFields = { ...note?.fields, image, masks: noteMasks(masks), mode };
    try {
      if (note) await update.mutateAsync({ id: note.id, fields });
      else await create.mutateAsync({ deckId: deckId as string, type: 'occlusion', fields });
      onDone();
    } catch (caught) {
      setError(errorDetail(caught, note ? messages.noteSaveFailed : messages.addCardFailed));
    }
  }

  const busy = progress.step === 'uploading' || progress.step === 'suggesting';
  return (
    <CardFormShell
      className="form occlusion-form"
      label={occlusionMessages.formLabel}
      onSubmit={save}
      onShortcut={save}
      error={error}
      cancelLabel={note ? 'Cancel' : 'Close'}
      onCancel={onDone}
      submitLabel={note ? messages.saveNote : occlusionMessages.saveNote}
      pending={saving}
      dirty={touched || masks.announcement !== '' || mode !== (note?.fields.mode ?? 'hide_one')}
    >
      {before}
      {!note && (
        <div className="field">
          <label htmlFor={fileId}>{occlusionMessages.imageLabel}</label>
          <input id={fileId} type="file" accept={acceptedImages} disabled={busy} onChange={chooseImage} />
        </div>
      )}
      {busy && (
        <p className="occlusion-form__status" role="status">
          <span className="occlusion-form__spinner" aria-hidden="true" />
          {progress.step === 'uploading' ? occlusionMessages.uploading : occlusionMessages.suggesting}
        </p>
      )}
      {progress.step === 'done' && <Notice tone={progress.tone}>{progress.text}</Notice>}
      {image && <MaskEditor imageUrl={mediaUrl(image)} state={masks} dispatch={dispatch} />}
      <RadioChoice legend={occlusionMessages.modeLegend} options={modeOptions} value={mode} onValue={setMode} />
    </CardFormShell>
  );
}
