import { classMessages } from '@flashcards/shared/class-messages';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/button';
import { Notice } from '../../components/notice';
import { useAuth } from '../../lib/auth-context';
import { classesPagePath, classPagePath } from '../../lib/classes-api';
import { pendingJoin } from '../../lib/pending-import';
import { JoinDisclosure } from './class-invite';
import { joinErrorText, useJoinClass } from './classes-api';
import './classes.css';

/**
 * /join/{code}: what the teacher will see, then Join class. A visitor's code waits as the pending join while they
 * sign in on /login, which brings them back here, where the join then runs by itself.
 */
export function JoinScreen({ code }: { code: string | undefined }) {
  const navigate = useNavigate();
  const { user, loading: authLoading } = useAuth();
  const join = useJoinClass();
  const autoJoinStarted = useRef(false);

  const { mutate } = join;
  const joinNow = (joinCode: string) =>
    mutate(joinCode, { onSuccess: (joined) => navigate(classPagePath(joined._id)) });

  // biome-ignore lint/correctness/useExhaustiveDependencies: joinNow is remade each render; the ref runs it once.
  useEffect(() => {
    if (!code || !user || autoJoinStarted.current || pendingJoin.get() !== code) return;
    autoJoinStarted.current = true;
    pendingJoin.clear();
    joinNow(code);
  }, [code, user]);

  function onJoin() {
    if (!code) return;
    if (!user) {
      pendingJoin.set(code);
      navigate('/login');
      return;
    }
    joinNow(code);
  }

  if (!code) return <Notice tone="error">{classMessages.joinPageInvalid}</Notice>;
  return (
    <article className="panel panel--flat join-class">
      <p>
        {classMessages.joinCodeLabel}: <strong className="join-class__code">{code}</strong>
      </p>
      <JoinDisclosure />
      {join.isError && (
        <Notice tone="error">
          {joinErrorText(join.error)} <Link to={classesPagePath}>{classMessages.backToClasses}</Link>
        </Notice>
      )}
      {!user && !authLoading && <p className="muted">{classMessages.joinPageSignInHint}</p>}
      <Button
        className="button--large"
        onClick={onJoin}
        disabled={authLoading}
        pending={join.isPending}
        pendingLabel={classMessages.joining}
      >
        {user || authLoading ? classMessages.joinButton : classMessages.joinPageSignIn}
      </Button>
    </article>
  );
}
