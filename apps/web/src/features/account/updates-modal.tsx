import { Modal } from '../../components/modal';
import { changelog } from './changelog';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** The "What's New" changelog (April 6 to 12, 2025). */
export function UpdatesModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="What's New" onClose={onClose}>
      <ol className="changelog">
        {changelog.map((entry) => (
          <li key={entry.date}>
            <h3>
              <time dateTime={entry.date}>{dateFormat.format(new Date(`${entry.date}T00:00:00Z`))}</time>: {entry.title}
            </h3>
            <ul>
              {entry.changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </Modal>
  );
}
