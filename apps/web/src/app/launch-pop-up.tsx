/**
 * The launch pop-up (spec section 7, `popUp/list`): a centred card over a dimming mask that takes
 * every tap until the user dismisses it. Plain React and CSS, loaded only when there is a pop-up
 * to show (antd-mobile's Dialog brought its animation library, ~29 KB, onto the first screen).
 */
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from '../i18n/react';
import type { PopUp } from '../api/launch';
import './launch-pop-up.css';

export default function LaunchPopUp({ popUp, onClose }: { popUp: PopUp; onClose(): void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <div className="launch-pop-up" data-testid="launch-pop-up">
      <div className="launch-pop-up-mask" data-testid="launch-pop-up-mask" aria-hidden="true" />
      <div
        className="launch-pop-up-card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
      >
        <div className="launch-pop-up-title" id={titleId}>
          {popUp.title}
        </div>
        <div className="launch-pop-up-content">{popUp.content}</div>
        <button ref={button} type="button" className="launch-pop-up-button" onClick={onClose}>
          {t('common_gotIt')}
        </button>
      </div>
    </div>
  );
}
