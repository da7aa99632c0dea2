/**
 * The launch pop-up (spec section 7, `popUp/list`): a centred card over a dimming mask that takes
 * every tap until the user dismisses it. Plain React and CSS (~1 KB; antd-mobile's Dialog brought
 * its animation library, ~29 KB): part of the first screen's code, so a first visit paints it as
 * soon as its text arrives. It is the largest thing that visit paints; a lazy chunk behind
 * Suspense added a round trip and React's batching of Suspense reveals (up to 300 ms).
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
