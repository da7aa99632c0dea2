/** The deposit queue's channel cell: the channel, its kind and whether a proof is attached. */
import { PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { RECHARGE_CHANNEL_TYPE, type ReviewedRecharge } from '@bourse/shared';
import { Muted } from './cells';

function channelTypeName(type: number): string | undefined {
  return Object.entries(RECHARGE_CHANNEL_TYPE).find(([, code]) => code === type)?.[0];
}

export function ChannelCell({ record }: { record: ReviewedRecharge }) {
  const { t } = useTranslation();
  const type = channelTypeName(record.channelType);
  return (
    <div style={{ lineHeight: 1.35, whiteSpace: 'nowrap' }}>
      <div>{record.channelName}</div>
      <Muted small>
        {type && t(`deposits.channelType.${type as 'bank'}`)}
        {record.hasProof && (
          <span data-testid="has-proof">
            {' · '}
            <PaperClipOutlined /> {t('deposits.hasProof')}
          </span>
        )}
      </Muted>
    </div>
  );
}
