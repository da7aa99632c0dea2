/**
 * The message list (/pages/msg/msg-list): a tab for every type of message (and all of them), each
 * message with an unread dot, its title, an excerpt, whether it is an announcement or the user's
 * own, and its time (time-ago within a day). A message opens its detail, which marks it read.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ChoiceRow } from '../../components/choice-row';
import { RecordList, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { subscribe } from '../../lib/realtime';
import { fetchMessagePage, messageKeys, useMessageTypes } from './api';
import { plainText } from './format';
import { MessageRow } from './message-row';

export default function MessageListPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const typesQuery = useMessageTypes();
  const types = useMemo(() => typesQuery.data ?? [], [typesQuery.data]);
  const list = useRecordPages(messageKeys.list, (page, typeId?: number) =>
    fetchMessagePage(page, typeId),
  );
  // A message published while the list is open is read at the next notification or visit.
  useEffect(
    () =>
      subscribe('notifications', () => {
        void queryClient.invalidateQueries({ queryKey: messageKeys.list });
      }),
    [queryClient],
  );
  const options = useMemo(() => ['all' as const, ...types.map((type) => type.id)], [types]);
  return (
    <SignedInScreen testId="msg-list-page" title={t('area_messages')}>
      <ChoiceRow
        tabs
        className="market-tabs record-tabs"
        label={t('field_typeId')}
        options={options}
        value={list.filter}
        onChange={list.setFilter}
        text={(value) =>
          value === 'all' ? t('msg_all') : (types.find((type) => type.id === value)?.name ?? '')
        }
        optionTestId="msg-tab"
      />
      <div role="tabpanel" data-testid="msg-rows">
        <RecordList list={list} className="msg-rows" empty={{ title: t('msg_empty') }}>
          {list.rows.map((row) => (
            <MessageRow
              key={row.id}
              testId={`msg-row-${row.id}`}
              unread={row.readFlag === 0}
              title={row.title}
              text={plainText(row.content)}
              time={row.createTime}
              tag={t(row.kind === 1 ? 'msg_announcement' : 'msg_personal')}
              onClick={() => navigateTo('messageDetail', { id: row.id })}
            />
          ))}
        </RecordList>
      </div>
    </SignedInScreen>
  );
}
