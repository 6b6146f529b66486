import type { Deck } from '@flashcards/shared/api-types';
import { classMessages } from '@flashcards/shared/class-messages';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/button';
import { DeckSelect } from '../../components/deck-select';
import { Modal } from '../../components/modal';
import { Notice } from '../../components/notice';
import { Field } from '../../components/text-field';
import { errorDetail } from '../../lib/api-client';
import { useClasses } from '../../lib/classes-api';
import { ownDecks, useDecks } from '../../lib/decks-api';
import { useAssignDeck } from './classes-api';

/** The deck list's "Assign to class": the teacher chooses one of the classes they teach. */
export function AssignDeckModal({ deck, onClose }: { deck: Deck; onClose: () => void }) {
  const selectId = useId();
  const classes = useClasses();
  const taught = (classes.data ?? []).filter((item) => item.role === 'teacher');
  const [classId, setClassId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const assign = useAssignDeck();
  const chosen = classId || taught[0]?._id || '';
  const chosenName = taught.find((item) => item._id === chosen)?.name ?? '';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!chosen) {
      setError(classMessages.assignNoClass);
      return;
    }
    setError(null);
    assign.mutate(
      { classId: chosen, deckId: deck._id },
      { onError: (caught) => setError(errorDetail(caught, classMessages.assignFailed)) },
    );
  }

  return (
    <Modal title={`${classMessages.assignHeading}: ${deck.name}`} onClose={onClose}>
      {classes.isError ? (
        <Notice tone="error">{classMessages.listLoadFailed}</Notice>
      ) : !classes.data ? (
        <p role="status">{messages.loading}</p>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <Field label={classMessages.assignClassLabel} controlId={selectId}>
            <select id={selectId} value={chosen} onChange={(event) => setClassId(event.target.value)}>
              {taught.map((item) => (
                <option key={item._id} value={item._id}>
                  {item.name}
                </option>
              ))}
            </select>
          </Field>
          <p className="muted">{classMessages.assignHint}</p>
          {error && <Notice tone="error">{error}</Notice>}
          {assign.isSuccess && (
            <Notice tone="success">
              {fillMessage(classMessages.assigned, { deck: deck.name, class: chosenName })}
            </Notice>
          )}
          <div className="form__actions">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" pending={assign.isPending} pendingLabel={classMessages.assigning}>
              {classMessages.assignButton}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/** The class page's "Assign deck": the teacher chooses one of their own decks (a class deck's copy is not theirs). */
export function AssignDeckForm({ classId, className }: { classId: string; className: string }) {
  const decks = useDecks();
  const own = ownDecks(decks.data);
  const [deckId, setDeckId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const assign = useAssignDeck();
  const chosen = deckId || own[0]?._id || '';
  const chosenName = own.find((deck) => deck._id === chosen)?.name ?? '';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!chosen) {
      setError(classMessages.assignNoDeck);
      return;
    }
    setError(null);
    assign.mutate(
      { classId, deckId: chosen },
      { onError: (caught) => setError(errorDetail(caught, classMessages.assignFailed)) },
    );
  }

  if (decks.isError) return <Notice tone="error">{messages.decksLoadFailed}</Notice>;
  if (!decks.data) return <p role="status">{messages.loading}</p>;
  if (own.length === 0) return <p className="muted">{classMessages.assignNoOwnDecks}</p>;
  return (
    <form className="form assign-deck" onSubmit={submit} noValidate aria-label={classMessages.assignHeading}>
      <DeckSelect decks={own} value={chosen} onValue={setDeckId} />
      {error && <Notice tone="error">{error}</Notice>}
      {assign.isSuccess && (
        <Notice tone="success">{fillMessage(classMessages.assigned, { deck: chosenName, class: className })}</Notice>
      )}
      <div className="form__actions form__actions--start">
        <Button type="submit" pending={assign.isPending} pendingLabel={classMessages.assigning}>
          {classMessages.assignButton}
        </Button>
      </div>
    </form>
  );
}
