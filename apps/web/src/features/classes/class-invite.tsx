import { classMessages } from '@flashcards/shared/class-messages';
import { CopyField } from '../../components/copy-field';

/** The join link a teacher hands out: the site's own address and /join/{code}. */
export function joinLinkOf(joinCode: string): string {
  return `${window.location.origin}/join/${encodeURIComponent(joinCode)}`;
}

/** The class's join code and join link, each with its copy button. */
export function ClassInvite({ joinCode }: { joinCode: string }) {
  return (
    <div className="class-invite">
      <CopyField
        label={classMessages.joinCodeLabel}
        value={joinCode}
        copyLabel={classMessages.copyCode}
        copiedLabel={classMessages.copied}
        copyFailedText={classMessages.copyFailed}
      />
      <CopyField
        label={classMessages.joinLinkLabel}
        value={joinLinkOf(joinCode)}
        copyLabel={classMessages.copyLink}
        copiedLabel={classMessages.copied}
        copyFailedText={classMessages.copyFailed}
      />
    </div>
  );
}

/** What joining shows the teacher, said before anyone joins. */
export function JoinDisclosure({ id }: { id?: string }) {
  return (
    <div className="join-disclosure" id={id}>
      <h3 className="join-disclosure__heading">{classMessages.joinDisclosureHeading}</h3>
      <p>{classMessages.joinDisclosure}</p>
    </div>
  );
}
