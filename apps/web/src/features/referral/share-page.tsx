/**
 * Invite friends (/pages/user/iwannashare): the user's invitation code and link, the link as a QR
 * code, copy buttons, "save image" (the code as a PNG with the invitation code under it) and the
 * system share sheet where the browser has one (Web Share API). The link opens the register screen
 * with the code filled in.
 */
import { Button } from 'antd-mobile';
import { QrCode } from '../../components/qr-code';
import { downloadBlob } from '../../components/qr-image';
import { SignedInScreen } from '../../components/signed-in-screen';
import { getHref } from '../../config/paths';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { copyText } from '../../lib/clipboard';
import { navigateTo } from '../../lib/navigation';
import { showHelperToast, showImageSaveFailure, showImageToast } from '../../lib/toast';
import { inviteLink } from './api';
import { invitePng } from './invite-image';
import './referral.css';

export default function SharePage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const code = user?.inviteCode ?? '';
  const link = code ? inviteLink(getHref('register'), code) : '';
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  function copy(value: string) {
    void copyText(value).then((ok) =>
      showHelperToast(t(ok ? 'recharge_copied' : 'recharge_copyFailed')),
    );
  }

  async function save() {
    try {
      downloadBlob(await invitePng(link, code), `invite-${code}.png`);
      showImageToast(t('team_imageSaved'));
    } catch {
      showImageSaveFailure();
    }
  }

  async function share() {
    try {
      await navigator.share({
        title: t('area_share'),
        text: translate('team_shareText', [code]),
        url: link,
      });
    } catch {
      // The user closed the sheet: nothing to tell.
    }
  }

  return (
    <SignedInScreen testId="share-page" title={t('area_share')}>
      <div className="page-body stack ref-share">
        <p className="muted ref-share-hint">{t('team_shareHint')}</p>
        {code && (
          <div className="card ref-qr-card">
            <QrCode className="ref-qr" value={link} label={t('team_qrLabel')} testId="share-qr" />
            <div className="ref-code-label muted">{t('team_inviteCode')}</div>
            <div className="ref-code" data-testid="share-code">
              <bdi dir="ltr">{code}</bdi>
            </div>
          </div>
        )}
        <div className="card stack">
          <CopyField
            label={t('team_inviteCode')}
            value={code}
            onCopy={copy}
            copyLabel={t('recharge_copy')}
            testId="share-copy-code"
          />
          <CopyField
            label={t('team_inviteLink')}
            value={link}
            onCopy={copy}
            copyLabel={t('recharge_copy')}
            testId="share-copy-link"
            valueTestId="share-link"
            wrap
          />
        </div>
        <div className="ref-actions">
          <Button block fill="outline" data-testid="share-save" onClick={() => void save()}>
            {t('recharge_saveImage')}
          </Button>
          {canShare && (
            <Button block color="primary" data-testid="share-sheet" onClick={() => void share()}>
              {t('team_share')}
            </Button>
          )}
        </div>
        <button
          type="button"
          className="link ref-to-team"
          data-testid="share-to-team"
          onClick={() => navigateTo('team')}
        >
          {t('area_team')}
        </button>
      </div>
    </SignedInScreen>
  );
}

/** A labelled value (left to right in every language) with its copy button. */
function CopyField({
  label,
  value,
  onCopy,
  copyLabel,
  testId,
  valueTestId,
  wrap = false,
}: {
  label: string;
  value: string;
  onCopy: (value: string) => void;
  copyLabel: string;
  testId: string;
  valueTestId?: string;
  /** A long value (the link) breaks anywhere. */
  wrap?: boolean;
}) {
  return (
    <div className="ref-field">
      <span className="muted">{label}</span>
      <bdi
        dir="ltr"
        className={wrap ? 'ref-field-value ref-link' : 'ref-field-value'}
        data-testid={valueTestId}
      >
        {value}
      </bdi>
      <button
        type="button"
        className="field-addon"
        data-testid={testId}
        onClick={() => onCopy(value)}
      >
        {copyLabel}
      </button>
    </div>
  );
}
