/**
 * API lines: this server and the operator's alternative lines, each with its measured round-trip
 * time. The chosen index is kept on the device and selects the base address of every request.
 */
import { useState } from 'react';
import { Button, List, Tag } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';
import { translate } from '../../i18n';
import { apiLines, chooseLine, lineIndex, measureLatency } from '../../lib/lines';
import { reLaunch } from '../../lib/navigation';

export default function LinePage() {
  const { t } = useTranslation();
  const lines = apiLines();
  const [current, setCurrent] = useState(lineIndex);
  const latency = useQuery({
    queryKey: ['lineLatency', lines.map((line) => line.url).join(',')],
    queryFn: () => Promise.all(lines.map((line) => measureLatency(line))),
    staleTime: 0,
  });

  function choose(index: number) {
    setCurrent(index);
    chooseLine(index);
    reLaunch('home');
  }

  return (
    <div className="page" data-testid="line-page">
      <PageHeader title={t('page_line')} />
      <List mode="card" header={t('line_hint')}>
        {lines.map((line, index) => {
          const ms = latency.data?.[index];
          return (
            <List.Item
              key={`${index}-${line.url}`}
              data-testid={`line-${index}`}
              onClick={() => choose(index)}
              arrowIcon={false}
              description={line.url || t('line_thisServer')}
              extra={
                <div className="row">
                  {latency.isFetching ? (
                    <Tag fill="outline">{t('line_measuring')}</Tag>
                  ) : ms === null || ms === undefined ? (
                    <Tag color="danger" fill="outline">
                      {t('line_unreachable')}
                    </Tag>
                  ) : (
                    <Tag
                      color={ms < 300 ? 'success' : 'warning'}
                      fill="outline"
                      data-testid={`line-latency-${index}`}
                    >
                      {translate('line_latency', [ms])}
                    </Tag>
                  )}
                  {current === index && <CheckOutline color="var(--accent)" />}
                </div>
              }
            >
              {line.name || translate('line_name', [index + 1])}
            </List.Item>
          );
        })}
      </List>
      <div className="page-body">
        <Button block onClick={() => void latency.refetch()} loading={latency.isFetching}>
          {t('line_measureAgain')}
        </Button>
      </div>
    </div>
  );
}
