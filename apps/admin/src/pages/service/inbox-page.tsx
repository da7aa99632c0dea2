/**
 * The customer-service inbox (support, admin): conversations by state on the left (new: nobody has
 * it; mine; waiting: someone has it and the customer wrote last; closed), the chat in the middle
 * (history paged back, pictures, the customer typing, read receipts, canned replies of the
 * customer's language, a picture to send), the customer beside it (their profile from the users
 * calls, with a link to their page; a visitor has none). Take, assign, release and close are
 * audited by the server. Changes arrive on the console's event stream as they happen, with a
 * sound for a customer's message (mutable). No money action is here.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  App,
  Avatar,
  Badge,
  Button,
  Card,
  Descriptions,
  Empty,
  Image,
  Input,
  List,
  Segmented,
  Select,
  Space,
  Spin,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import {
  MutedOutlined,
  PictureOutlined,
  SendOutlined,
  SoundOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CONVERSATION_STATES,
  consoleServiceApi,
  consoleUsersApi,
  languageByKey,
  SERVICE_TEXT_MAX,
  type ConversationState,
  type ServiceConversation,
  type ServiceMessage,
} from '@bourse/shared';
import { api } from '../../api';
import { useOperator } from '../../app/operator';
import { errorText } from '../../i18n';
import { mayCall } from '../../lib/access';
import { formatTime, formatTimeOfDay } from '../../lib/format';
import { useObjectUrl } from '../../components/proof-image';
import { useMuted, useServiceEvents, type ServiceDeskEvent } from './inbox-events';
import './inbox.css';

const PAGE_SIZE = 20;
const TYPING_SHOWN_MS = 4000;
const TYPING_EVERY_MS = 3000;
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

const inboxKey = ['serviceInbox'] as const;

function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function merged(list: ServiceMessage[], more: ServiceMessage[]): ServiceMessage[] {
  const byId = new Map(list.map((message) => [message.id, message]));
  for (const message of more) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The customer's account, or the visitor's number. */
function PersonName({ row }: { row: ServiceConversation }) {
  const { t } = useTranslation();
  return <>{row.userAccount ?? t('service.visitor', { id: row.visitorId })}</>;
}

function ConversationList({
  state,
  selected,
  onSelect,
}: {
  state: ConversationState;
  selected: number | undefined;
  onSelect: (row: ServiceConversation) => void;
}) {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: [...inboxKey, 'list', state],
    queryFn: () => api.call(consoleServiceApi.conversations, { state, pageSize: 100 }),
  });
  if (list.isError) return <Typography.Text type="danger">{errorText(list.error)}</Typography.Text>;
  return (
    <List<ServiceConversation>
      className="svc-conversations"
      loading={list.isPending}
      dataSource={list.data?.rows}
      locale={{ emptyText: <Empty description={t('service.noConversations')} /> }}
      data-testid="service-conversations"
      renderItem={(row) => (
        <List.Item
          key={row.id}
          className={row.id === selected ? 'svc-conversation selected' : 'svc-conversation'}
          onClick={() => onSelect(row)}
          data-testid="service-conversation"
          data-id={row.id}
        >
          <List.Item.Meta
            avatar={
              <Badge count={row.unread} size="small">
                <Avatar icon={<UserOutlined />} />
              </Badge>
            }
            title={
              <div className="svc-conversation-title">
                <span>
                  <PersonName row={row} />
                </span>
                <span className="svc-time">
                  {row.lastMessageTime ? formatTimeOfDay(row.lastMessageTime) : ''}
                </span>
              </div>
            }
            description={
              <div className="svc-conversation-text">
                <span className="svc-preview">
                  {row.lastMessage ?? (row.lastMessageTime ? t('service.picture') : '')}
                </span>
                <span className="svc-assignee">{row.operatorName ?? t('service.unassigned')}</span>
              </div>
            }
          />
        </List.Item>
      )}
    />
  );
}

function DeskImage({ message }: { message: ServiceMessage }) {
  const { t } = useTranslation();
  const image = useQuery({
    queryKey: ['serviceImage', message.id],
    queryFn: () => api.call(consoleServiceApi.image, { id: message.id }),
    staleTime: Infinity,
    gcTime: 60_000,
  });
  const url = useObjectUrl(image.data);
  if (!url) return <Spin size="small" />;
  return (
    <Image
      src={url}
      alt={t('service.picture')}
      width={220}
      className="svc-picture"
      data-testid="service-image"
    />
  );
}

function Bubble({ message }: { message: ServiceMessage }) {
  const { t } = useTranslation();
  const desk = message.sender === 'operator';
  return (
    <div
      className={`svc-row ${desk ? 'svc-mine' : 'svc-theirs'}`}
      data-testid="service-message"
      data-sender={message.sender}
      data-id={message.id}
    >
      {desk && message.operatorName && <div className="svc-author">{message.operatorName}</div>}
      <div className="svc-bubble">
        {message.image ? (
          <DeskImage message={message} />
        ) : (
          <div className="svc-text" dir="auto">
            {message.content}
          </div>
        )}
      </div>
      <div className="svc-meta">
        <span>{formatTime(message.createTime)}</span>
        {desk && (
          <span className={message.read ? 'svc-read' : undefined} data-testid="service-receipt">
            {t(message.read ? 'service.read' : 'service.sent')}
          </span>
        )}
      </div>
    </div>
  );
}

/** The customer beside the chat: a user's profile, or a note about visitors. */
function Profile({ conversation }: { conversation: ServiceConversation }) {
  const { t } = useTranslation();
  const operator = useOperator();
  const userId = conversation.userId;
  const readsUsers = mayCall(operator, consoleUsersApi.user);
  const user = useQuery({
    queryKey: ['user', userId],
    queryFn: () => api.call(consoleUsersApi.user, { id: userId! }),
    enabled: userId !== null && readsUsers,
  });
  return (
    <Card size="small" title={t('service.profile')} data-testid="service-profile">
      {userId === null ? (
        <Typography.Paragraph type="secondary">{t('service.visitorProfile')}</Typography.Paragraph>
      ) : (
        <>
          {user.data && (
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'account', label: t('service.account'), children: user.data.userAccount },
                { key: 'nick', label: t('service.nickName'), children: user.data.nickName },
                {
                  key: 'status',
                  label: t('service.status'),
                  children: (
                    <Tag color={user.data.status === 0 ? 'green' : 'red'}>
                      {t(user.data.status === 0 ? 'service.active' : 'service.disabled')}
                    </Tag>
                  ),
                },
                {
                  key: 'auth',
                  label: t('service.verified'),
                  children: t(`service.authStatus.${String(user.data.authStatus) as '0'}`),
                },
                {
                  key: 'registered',
                  label: t('service.registered'),
                  children: formatTime(user.data.createTime),
                },
                {
                  key: 'login',
                  label: t('service.lastLogin'),
                  children: formatTime(user.data.lastLoginTime),
                },
              ]}
            />
          )}
          {user.isPending && readsUsers && <Spin size="small" />}
          <a href={`#/users/${userId}`} data-testid="service-user-link">
            {t('service.openUser')}
          </a>
        </>
      )}
    </Card>
  );
}

function CannedPicker({
  language,
  onPick,
}: {
  language: string;
  onPick: (content: string) => void;
}) {
  const { t } = useTranslation();
  const canned = useQuery({
    queryKey: [...inboxKey, 'canned'],
    queryFn: () => api.call(consoleServiceApi.cannedReplies, { pageSize: 100 }),
    staleTime: 30_000,
  });
  const rows = canned.data?.rows ?? [];
  // The customer's language, else English.
  const mine = rows.filter((row) => row.language === language);
  const shown = mine.length > 0 ? mine : rows.filter((row) => row.language === 'en');
  const name = languageByKey(mine.length > 0 ? language : 'en')?.name ?? language;
  return (
    <Select
      className="svc-canned"
      placeholder={t('service.canned')}
      value={null}
      popupMatchSelectWidth={360}
      notFoundContent={t('service.noCanned')}
      options={[
        {
          label: t('service.cannedFor', { language: name }),
          options: shown.map((row) => ({ value: row.id, label: row.title })),
        },
      ]}
      onChange={(id: number) => {
        const row = rows.find((reply) => reply.id === id);
        if (row) onPick(row.content);
      }}
      data-testid="service-canned"
    />
  );
}

function readFile(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

function Chat({
  conversation,
  typing,
  newsFor,
}: {
  conversation: ServiceConversation;
  typing: boolean;
  /** Bumped when the server says this conversation changed. */
  newsFor: number;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const operator = useOperator();
  const queryClient = useQueryClient();
  const [messages, setMessages] = useState<ServiceMessage[]>([]);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const atBottom = useRef(true);
  const lastTypingSent = useRef(0);
  const readSent = useRef(0);
  const id = conversation.id;

  const refreshNewest = useCallback(async () => {
    const page = await api.call(consoleServiceApi.messages, { id, pageSize: PAGE_SIZE });
    setMessages((current) => merged(current, page.rows));
    return page;
  }, [id]);

  useEffect(() => {
    setMessages([]);
    setLoaded(false);
    readSent.current = 0;
    atBottom.current = true;
    void refreshNewest().then((page) => {
      setHasOlder(page.total > page.rows.length);
      setLoaded(true);
    });
  }, [refreshNewest]);

  useEffect(() => {
    if (newsFor > 0) void refreshNewest();
  }, [newsFor, refreshNewest]);

  // The customer's messages shown are read: their app shows the receipt.
  const lastTheirs = [...messages].reverse().find((row) => row.sender === 'user');
  useEffect(() => {
    if (!lastTheirs || lastTheirs.id <= readSent.current || lastTheirs.read) return;
    readSent.current = lastTheirs.id;
    void api
      .call(consoleServiceApi.read, { conversationId: id, upToId: lastTheirs.id })
      .then(() => queryClient.invalidateQueries({ queryKey: [...inboxKey, 'list'] }));
  }, [lastTheirs, id, queryClient]);

  const count = messages.length;
  const lastId = messages.at(-1)?.id;
  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    if (anchor.current) {
      element.scrollTop = anchor.current.top + (element.scrollHeight - anchor.current.height);
      anchor.current = null;
    } else if (atBottom.current) element.scrollTop = element.scrollHeight;
  }, [count, lastId, typing, loaded]);

  async function older() {
    const first = messages[0];
    if (!first || loadingOlder) return;
    const element = list.current;
    if (element) anchor.current = { height: element.scrollHeight, top: element.scrollTop };
    setLoadingOlder(true);
    try {
      const page = await api.call(consoleServiceApi.messages, {
        id,
        beforeId: first.id,
        pageSize: PAGE_SIZE,
      });
      setMessages((current) => merged(current, page.rows));
      setHasOlder(page.rows.length === PAGE_SIZE);
    } finally {
      setLoadingOlder(false);
    }
  }

  async function send(input: { content?: string; image?: string }) {
    setSending(true);
    // What the operator types next is a new reply: the customer hears it at once.
    lastTypingSent.current = 0;
    try {
      const sent = await api.call(consoleServiceApi.send, {
        conversationId: id,
        ...input,
        requestId: newRequestId(),
      });
      atBottom.current = true;
      setMessages((current) => merged(current, [sent]));
      if (input.content) setText('');
      void queryClient.invalidateQueries({ queryKey: inboxKey });
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setSending(false);
    }
  }

  async function act(action: 'take' | 'release' | 'close', done: string) {
    try {
      await api.call(consoleServiceApi[action], { id });
      void message.success(done);
      void queryClient.invalidateQueries({ queryKey: inboxKey });
    } catch (error) {
      void message.error(errorText(error));
    }
  }

  const agents = useQuery({
    queryKey: [...inboxKey, 'agents'],
    queryFn: () => api.call(consoleServiceApi.agents),
    staleTime: 60_000,
  });
  const mine = conversation.operatorId === operator.id;

  return (
    <div className="svc-chat" data-testid="service-chat" data-conversation={id}>
      <div className="svc-chat-head">
        <div>
          <Typography.Title level={5} style={{ margin: 0 }}>
            <PersonName row={conversation} />
          </Typography.Title>
          <Space size={6}>
            {conversation.closed && <Tag>{t('service.closedTag')}</Tag>}
            <Tag color={conversation.operatorName ? 'blue' : 'orange'}>
              {conversation.operatorName
                ? t('service.assignedTo', { name: conversation.operatorName })
                : t('service.unassigned')}
            </Tag>
            <Tag>{languageByKey(conversation.language)?.name ?? conversation.language}</Tag>
          </Space>
        </div>
        <Space wrap>
          {!mine && (
            <Button
              type="primary"
              onClick={() => void act('take', t('service.taken'))}
              data-testid="service-take"
            >
              {t('service.take')}
            </Button>
          )}
          <Select
            style={{ width: 180 }}
            placeholder={t('service.assign')}
            value={null}
            options={(agents.data?.rows ?? [])
              .filter((agent) => agent.operatorId !== conversation.operatorId)
              .map((agent) => ({ value: agent.operatorId, label: agent.username }))}
            onChange={(operatorId: number) => {
              const name = agents.data?.rows.find((a) => a.operatorId === operatorId)?.username;
              void api
                .call(consoleServiceApi.assign, { id, operatorId })
                .then(() => {
                  void message.success(t('service.assigned', { name }));
                  void queryClient.invalidateQueries({ queryKey: inboxKey });
                })
                .catch((error: unknown) => void message.error(errorText(error)));
            }}
            data-testid="service-assign"
          />
          {conversation.operatorId !== null && (
            <Button onClick={() => void act('release', t('service.released'))}>
              {t('service.release')}
            </Button>
          )}
          {!conversation.closed && (
            <Button danger onClick={() => void act('close', t('service.closedDone'))}>
              {t('service.close')}
            </Button>
          )}
        </Space>
      </div>
      <div
        className="svc-messages"
        ref={list}
        onScroll={() => {
          const element = list.current;
          if (!element) return;
          atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
          if (element.scrollTop < 40 && hasOlder && !loadingOlder) void older();
        }}
        data-testid="service-messages"
      >
        {!loaded ? (
          <Spin />
        ) : hasOlder ? (
          <Button
            size="small"
            className="svc-older"
            loading={loadingOlder}
            onClick={() => void older()}
            data-testid="service-older"
          >
            {t('service.older')}
          </Button>
        ) : (
          <div className="svc-start">{t('service.start')}</div>
        )}
        {messages.map((row) => (
          <Bubble key={row.id} message={row} />
        ))}
        {typing && (
          <div className="svc-typing" data-testid="service-typing">
            {t('service.typing')}
          </div>
        )}
      </div>
      <div className="svc-composer">
        <Space.Compact block>
          <CannedPicker language={conversation.language} onPick={(content) => setText(content)} />
        </Space.Compact>
        <div className="svc-compose-row">
          <Input.TextArea
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              const now = Date.now();
              if (event.target.value.trim() && now - lastTypingSent.current > TYPING_EVERY_MS) {
                lastTypingSent.current = now;
                void api
                  .call(consoleServiceApi.typing, { conversationId: id })
                  .catch(() => undefined);
              }
            }}
            onPressEnter={(event) => {
              if (event.shiftKey) return;
              event.preventDefault();
              if (text.trim() && !sending) void send({ content: text.trim() });
            }}
            placeholder={t('service.placeholder')}
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={SERVICE_TEXT_MAX}
            data-testid="service-reply"
          />
          <Space direction="vertical">
            <Tooltip title={t('service.image')}>
              <label className="svc-pick">
                <PictureOutlined />
                <input
                  type="file"
                  accept="image/jpeg,image/png"
                  data-testid="service-image-input"
                  onChange={(event) => {
                    const file = event.target.files?.[0];
                    event.target.value = '';
                    if (!file) return;
                    if (file.size > MAX_IMAGE_BYTES) {
                      void message.error(t('service.imageTooLarge'));
                      return;
                    }
                    void readFile(file).then((image) => send({ image }));
                  }}
                />
              </label>
            </Tooltip>
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={sending}
              disabled={!text.trim()}
              onClick={() => void send({ content: text.trim() })}
              data-testid="service-send"
            >
              {t('service.send')}
            </Button>
          </Space>
        </div>
      </div>
    </div>
  );
}

export default function InboxPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<ConversationState>('new');
  const [selectedId, setSelectedId] = useState<number>();
  const [typingIn, setTypingIn] = useState<number>();
  const [news, setNews] = useState<Record<number, number>>({});
  const [muted, setMuted] = useMuted();
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const selected = useQuery({
    queryKey: [...inboxKey, 'conversation', selectedId],
    queryFn: () => api.call(consoleServiceApi.conversation, { id: selectedId! }),
    enabled: selectedId !== undefined,
  });

  const onEvent = useCallback(
    (event: ServiceDeskEvent) => {
      if (event.type === 'typing') {
        setTypingIn(event.id);
        clearTimeout(typingTimer.current);
        typingTimer.current = setTimeout(() => setTypingIn(undefined), TYPING_SHOWN_MS);
        return;
      }
      if (event.type === 'message' && event.sender === 'user')
        setTypingIn((current) => (current === event.id ? undefined : current));
      setNews((current) => ({ ...current, [event.id]: (current[event.id] ?? 0) + 1 }));
      void queryClient.invalidateQueries({ queryKey: [...inboxKey, 'list'] });
      void queryClient.invalidateQueries({ queryKey: [...inboxKey, 'conversation', event.id] });
    },
    [queryClient],
  );
  const { live, beeps } = useServiceEvents(
    onEvent,
    () => void queryClient.invalidateQueries({ queryKey: inboxKey }),
    muted,
  );
  useEffect(() => () => clearTimeout(typingTimer.current), []);

  return (
    <div className="svc-inbox" data-testid="service-inbox" data-beeps={beeps}>
      <div className="svc-side">
        <div className="svc-side-head">
          <Segmented<ConversationState>
            value={state}
            onChange={setState}
            options={CONVERSATION_STATES.map((value) => ({
              value,
              label: t(`service.state.${value}`),
            }))}
            data-testid="service-states"
          />
          <Space size={4}>
            <Badge
              status={live ? 'success' : 'warning'}
              text={t(live ? 'service.live' : 'service.offline')}
            />
            <Tooltip title={t(muted ? 'service.unmute' : 'service.mute')}>
              <Button
                type="text"
                aria-label={t(muted ? 'service.unmute' : 'service.mute')}
                aria-pressed={muted}
                icon={muted ? <MutedOutlined /> : <SoundOutlined />}
                onClick={() => setMuted(!muted)}
                data-testid="service-mute"
              />
            </Tooltip>
          </Space>
        </div>
        <ConversationList
          state={state}
          selected={selectedId}
          onSelect={(row) => setSelectedId(row.id)}
        />
      </div>
      <div className="svc-main">
        {selected.data ? (
          <Chat
            key={selected.data.id}
            conversation={selected.data}
            typing={typingIn === selected.data.id}
            newsFor={news[selected.data.id] ?? 0}
          />
        ) : (
          <Empty className="svc-pick-one" description={t('service.pick')} />
        )}
      </div>
      <div className="svc-aside">{selected.data && <Profile conversation={selected.data} />}</div>
    </div>
  );
}
