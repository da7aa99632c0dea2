/**
 * API keys in the security centre: the user's keys (label, book, permissions, allow-list, expiry,
 * when made and last used, revoked or not), creating one (its secret shown this once, with a QR
 * code for a bot on a phone), changing a key's label and allow-list, revoking one behind a
 * confirmation, and each key's usage log of the last 30 days.
 *
 * The view is named in the query beside the section's tab (`view=create`, `view=edit&key=7`,
 * `view=usage&key=7`), so back returns to the list and a link can open one; a new key's secret
 * lives only in this component's state, never in the address or on the device.
 */
import { useState } from 'react';
import { useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { formatDateTime, formatMessage, type ApiKeyCreated, type ApiKeyView } from '@bourse/shared';
import { showToast, unhandledMessage } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RecordList, useRecordPages, type RecordPage } from '../../components/record-list';
import { EmptyState, ListSkeleton } from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { API_KEYS_KEY, fetchApiKeys, findApiKey, revokeApiKey } from './api-keys-api';
import { CreateKeyForm, EditKeyForm } from './api-key-form';
import { shortKey } from './api-key-rules';
import { ApiKeySecret } from './api-key-secret';
import { ApiKeyUsage } from './api-key-usage';
import { Badge, Line } from './parts';
import './api-keys.css';

const LIST_KEY = [...API_KEYS_KEY, 'list'];

const STATUS_COLOR: Record<ApiKeyView['status'], string> = {
  active: 'var(--success)',
  expired: 'var(--text-muted)',
  revoked: 'var(--danger)',
};

type View = 'create' | 'edit' | 'usage';

function KeyCard({
  apiKey,
  onOpen,
  onRevoke,
}: {
  apiKey: ApiKeyView;
  onOpen: (view: View, id: number) => void;
  onRevoke: (key: ApiKeyView) => void;
}) {
  const { t } = useTranslation();
  const live = apiKey.status !== 'revoked';
  return (
    <article
      className="card stack ak-key"
      data-testid="api-key"
      data-id={apiKey.id}
      data-status={apiKey.status}
    >
      <div className="row ak-key-head">
        <strong className="ak-key-label" data-testid="api-key-label">
          {apiKey.label}
        </strong>
        <Badge color={STATUS_COLOR[apiKey.status]} testId="api-key-status">
          {t(`apiKeys_status_${apiKey.status}`)}
        </Badge>
      </div>
      <Line label={t('apiKeys_key')}>
        <span className="ak-mono" data-testid="api-key-id">
          {shortKey(apiKey.apiKey)}
        </span>
      </Line>
      <Line label={t('apiKeys_book')}>
        {t(apiKey.accountType === 2 ? 'apiKeys_book_demo' : 'apiKeys_book_live')}
      </Line>
      <Line label={t('field_permissions')}>
        <span data-testid="api-key-permissions">
          {apiKey.permissions
            .map((permission) => t(`apiKeys_permission_${permission}`))
            .join(' · ')}
        </span>
      </Line>
      <Line label={t('field_ipList')}>
        <span data-testid="api-key-addresses">
          {apiKey.ipList.length > 0 ? (
            <bdi dir="ltr">{apiKey.ipList.join(', ')}</bdi>
          ) : (
            t('apiKeys_anyAddress')
          )}
        </span>
      </Line>
      <Line label={t('apiKeys_expires')}>
        {apiKey.expireTime ? formatDateTime(apiKey.expireTime) : t('apiKeys_never')}
      </Line>
      <Line label={t('apiKeys_created')}>{formatDateTime(apiKey.createTime)}</Line>
      <Line label={t('apiKeys_lastUsed')}>
        {apiKey.lastUsedTime ? formatDateTime(apiKey.lastUsedTime) : t('apiKeys_notUsed')}
      </Line>
      {apiKey.revokeTime && (
        <Line label={t('apiKeys_revokedAt')}>{formatDateTime(apiKey.revokeTime)}</Line>
      )}
      <div className="ak-actions">
        <Button
          size="small"
          onClick={() => onOpen('usage', apiKey.id)}
          data-testid="api-key-usage-open"
        >
          {t('apiKeys_usage')}
        </Button>
        {live && (
          <Button
            size="small"
            onClick={() => onOpen('edit', apiKey.id)}
            data-testid="api-key-edit-open"
          >
            {t('apiKeys_edit')}
          </Button>
        )}
        {live && (
          <Button
            size="small"
            color="danger"
            fill="outline"
            onClick={() => onRevoke(apiKey)}
            data-testid="api-key-revoke"
          >
            {t('apiKeys_revoke')}
          </Button>
        )}
      </div>
    </article>
  );
}

function KeyList({ onOpen }: { onOpen: (view: View, id?: number) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useRecordPages(LIST_KEY, (page) => fetchApiKeys(page));
  const [revoking, setRevoking] = useState<ApiKeyView>();
  const [pending, setPending] = useState(false);

  async function revoke() {
    if (!revoking) return;
    setPending(true);
    try {
      await revokeApiKey(revoking.id);
      showToast(t('apiKeys_revokedToast'));
    } catch (error) {
      const message = unhandledMessage(error);
      if (message) showToast(message);
    } finally {
      setPending(false);
      setRevoking(undefined);
      await queryClient.invalidateQueries({ queryKey: API_KEYS_KEY });
    }
  }

  return (
    <div className="page-body stack" data-testid="api-keys" style={{ gap: 12 }}>
      <p className="muted" style={{ margin: 0 }}>
        {t('apiKeys_intro')}
      </p>
      <Button block color="primary" onClick={() => onOpen('create')} data-testid="api-key-new">
        {t('apiKeys_create')}
      </Button>
      <RecordList
        list={list}
        endTestId="api-keys-end"
        empty={{
          testId: 'api-keys-empty',
          title: t('apiKeys_empty'),
          text: t('apiKeys_emptyText'),
        }}
      >
        {list.rows.map((key) => (
          <KeyCard key={key.id} apiKey={key} onOpen={onOpen} onRevoke={setRevoking} />
        ))}
      </RecordList>
      <ConfirmDialog
        visible={revoking !== undefined}
        title={t('apiKeys_revoke')}
        content={revoking && formatMessage(t('apiKeys_revokeConfirm'), [revoking.label])}
        pending={pending}
        onClose={() => setRevoking(undefined)}
        onConfirm={() => void revoke()}
        confirmText={t('apiKeys_revoke')}
      />
    </div>
  );
}

/** One key by id: from the list already read when it is there, read again either way. */
function useApiKey(id: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...API_KEYS_KEY, 'one', id],
    queryFn: async () => (await findApiKey(id)) ?? null,
    enabled: id > 0,
    initialData: () => {
      for (const [, data] of queryClient.getQueriesData<InfiniteData<RecordPage<ApiKeyView>>>({
        queryKey: LIST_KEY,
      })) {
        const found = data?.pages.flatMap((page) => page.rows).find((key) => key.id === id);
        if (found) return found;
      }
      return undefined;
    },
    initialDataUpdatedAt: 0,
  });
}

function KeyNotFound({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      testId="api-key-not-found"
      title={t('hint_notFound')}
      action={{ label: t('common_back'), onClick: onBack }}
    />
  );
}

export function ApiKeysSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [created, setCreated] = useState<ApiKeyCreated>();
  const tab = search.get('tab') ?? '';
  const view = search.get('view');
  const keyId = Number(search.get('key')) || 0;
  const key = useApiKey(view === 'edit' || view === 'usage' ? keyId : 0);

  const open = (next: View, id?: number) =>
    setSearch(
      { tab, view: next, ...(id === undefined ? {} : { key: String(id) }) },
      { state: { fromKeys: true } },
    );
  // Back to the list: the entry it opened from when there is one, else in place of this one.
  const backToKeys = () => {
    if ((location.state as { fromKeys?: boolean } | null)?.fromKeys) void navigate(-1);
    else setSearch({ tab }, { replace: true });
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY });

  let body: React.ReactNode;
  if (created) {
    body = (
      <ApiKeySecret
        created={created}
        onDone={() => {
          setCreated(undefined);
          backToKeys();
        }}
        onLeave={() => setCreated(undefined)}
      />
    );
  } else if (view === 'create') {
    body = (
      <CreateKeyForm
        onCancel={backToKeys}
        onCreated={(key) => {
          setCreated(key);
          void refresh();
        }}
      />
    );
  } else if (view === 'edit') {
    if (keyId > 0 && key.isPending) body = <ListSkeleton rows={2} />;
    else if (!key.data || key.data.status === 'revoked') body = <KeyNotFound onBack={backToKeys} />;
    else
      body = (
        <EditKeyForm
          key={key.data.id}
          apiKey={key.data}
          onCancel={backToKeys}
          onSaved={() => {
            showToast(t('apiKeys_saved'));
            void refresh();
            backToKeys();
          }}
        />
      );
  } else if (view === 'usage' && keyId > 0) {
    body = <ApiKeyUsage keyId={keyId} label={key.data?.label} />;
  } else {
    body = <KeyList onOpen={open} />;
  }
  return (
    <div className="ak-section" data-testid="security-api-keys">
      {body}
    </div>
  );
}
