import type { ClassSummary } from '@flashcards/shared/api-types';
import { classMessages } from '@flashcards/shared/class-messages';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/button';
import { Notice } from '../../components/notice';
import { TextField } from '../../components/text-field';
import { errorDetail } from '../../lib/api-client';
import { classPagePath, useClasses } from '../../lib/classes-api';
import { ClassInvite, JoinDisclosure } from './class-invite';
import { joinErrorText, useCreateClass, useJoinClass } from './classes-api';
import './classes.css';

/** The longest class name the form takes. */
const maxClassNameLength = 100;

/** /classes: the classes the user teaches or attends, a form to create one and a form to join one by code. */
export function ClassesScreen() {
  return (
    <>
      <p className="muted classes-intro">{classMessages.intro}</p>
      <ClassList />
      <div className="classes-forms">
        <CreateClassForm />
        <JoinClassForm />
      </div>
    </>
  );
}

function ClassList() {
  const classes = useClasses();
  return (
    <section className="classes-section" aria-labelledby="classes-list-heading">
      <h2 id="classes-list-heading">{classMessages.listHeading}</h2>
      {classes.isError ? (
        <Notice tone="error">{classMessages.listLoadFailed}</Notice>
      ) : !classes.data ? (
        <p role="status">{messages.loading}</p>
      ) : classes.data.length === 0 ? (
        <p className="muted">{classMessages.listEmpty}</p>
      ) : (
        <ul className="class-list">
          {classes.data.map((item) => (
            <ClassRow key={item._id} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ClassRow({ item }: { item: ClassSummary }) {
  return (
    <li className="class-item">
      <Link className="class-item__name" to={classPagePath(item._id)}>
        {item.name}
      </Link>
      <span className={`class-role class-role--${item.role}`}>
        {item.role === 'teacher' ? classMessages.roleTeacher : classMessages.roleStudent}
      </span>
      {item.role === 'student' && (
        <span className="muted class-item__teacher">
          {fillMessage(classMessages.taughtBy, { name: item.teacher_name })}
        </span>
      )}
    </li>
  );
}

function CreateClassForm() {
  const errorId = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateClass();

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(messages.classNameEmpty);
      create.reset();
      return;
    }
    setError(null);
    create.mutate(trimmed, {
      onSuccess: () => setName(''),
      onError: (caught) => setError(errorDetail(caught, classMessages.createFailed)),
    });
  }

  return (
    <section className="panel classes-form" aria-labelledby="create-class-heading">
      <h2 id="create-class-heading">{classMessages.createHeading}</h2>
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={classMessages.createNameLabel}
          type="text"
          autoComplete="off"
          maxLength={maxClassNameLength}
          value={name}
          onValue={(next) => {
            setName(next);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {error && (
          <Notice tone="error" id={errorId}>
            {error}
          </Notice>
        )}
        <div className="form__actions form__actions--start">
          <Button type="submit" pending={create.isPending} pendingLabel={classMessages.creating}>
            {classMessages.createButton}
          </Button>
        </div>
      </form>
      {create.data && (
        <div className="classes-created">
          <Notice tone="success">{fillMessage(classMessages.created, { name: create.data.name })}</Notice>
          {create.data.join_code && <ClassInvite joinCode={create.data.join_code} />}
          <Link to={classPagePath(create.data._id)}>{create.data.name}</Link>
        </div>
      )}
    </section>
  );
}

function JoinClassForm() {
  const errorId = useId();
  const disclosureId = useId();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const join = useJoinClass();

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      setError(messages.joinCodeEmpty);
      return;
    }
    setError(null);
    join.mutate(trimmed, {
      onSuccess: (joined) => navigate(classPagePath(joined._id)),
      onError: (caught) => setError(joinErrorText(caught)),
    });
  }

  return (
    <section className="panel classes-form" aria-labelledby="join-class-heading">
      <h2 id="join-class-heading">{classMessages.joinHeading}</h2>
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={classMessages.joinCodeFieldLabel}
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          value={code}
          onValue={(next) => {
            setCode(next);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${disclosureId}` : disclosureId}
        />
        {error && (
          <Notice tone="error" id={errorId}>
            {error}
          </Notice>
        )}
        <JoinDisclosure id={disclosureId} />
        <div className="form__actions form__actions--start">
          <Button type="submit" pending={join.isPending} pendingLabel={classMessages.joining}>
            {classMessages.joinButton}
          </Button>
        </div>
      </form>
    </section>
  );
}
