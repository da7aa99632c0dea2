/** A row of the message and notification lists: unread dot, title or text, time, tag. */
import { translate } from '../../i18n';
import { listTime } from './format';
import './messages.css';
import '../../components/message-bell.css';

export function MessageRow({
  unread,
  title,
  text,
  time,
  tag,
  testId,
  onClick,
}: {
  unread: boolean;
  title?: string;
  text: string;
  time: string;
  tag?: string;
  testId: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={unread ? 'msg-row unread' : 'msg-row'}
      data-testid={testId}
      data-unread={unread ? 1 : 0}
      onClick={onClick}
    >
      {unread ? (
        <span
          className="unread-dot"
          data-testid={`${testId}-dot`}
          aria-label={translate('msg_unread')}
        />
      ) : (
        <span className="read-dot" aria-hidden="true" />
      )}
      <span className="msg-row-body">
        <span className="msg-row-head">
          {title !== undefined ? <strong>{title}</strong> : <span className="spacer" />}
          {tag && <span className="msg-kind">{tag}</span>}
          <time className="msg-row-time" dateTime={time} dir="auto">
            {listTime(time)}
          </time>
        </span>
        <span className="msg-row-text">{text}</span>
      </span>
    </button>
  );
}
