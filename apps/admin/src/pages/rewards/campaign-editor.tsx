/**
 * The drawer a welfare campaign is written in: its title, description and optional stated
 * withdrawal condition in the 19 languages (English first: the others fall back to it), its
 * window, currency, budget and tasks. Once started, the tasks, window, currency and condition are
 * shown but locked (the server refuses changing them: terms change only with notice); the texts
 * may be corrected and the budget may grow.
 */
import { useState } from 'react';
import { Button, Form, Input, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  REWARD_KINDS_WITH_AMOUNT,
  REWARD_TASK_KINDS,
  consoleRewardsApi,
  type ConsoleCampaign,
  type RewardTaskKind,
} from '@bourse/shared';
import { api } from '../../api';
import { EditorDrawer, useEditorSave } from '../../components/editor-drawer';
import { LanguageTabs } from '../../components/language-tabs';
import { useCurrencies } from '../../components/settings/parts';
import { isoTime, localTime } from '../../lib/format';

interface TaskDraft {
  kind: RewardTaskKind;
  threshold: string;
  reward: string;
}

interface Draft {
  title: Record<string, string>;
  description: Record<string, string>;
  condition: Record<string, string>;
  startTime: string;
  endTime: string;
  currencyId: number;
  budget: string;
  tasks: TaskDraft[];
}

function draftOf(campaign: ConsoleCampaign | undefined): Draft {
  const now = Date.now();
  return {
    title: { ...campaign?.title },
    description: { ...campaign?.description },
    condition: { ...campaign?.withdrawCondition },
    startTime: localTime(campaign?.startTime ?? new Date(now).toISOString()),
    endTime: localTime(campaign?.endTime ?? new Date(now + 30 * 86_400_000).toISOString()),
    currencyId: campaign?.currencyId ?? 3,
    budget: campaign?.budget ?? '',
    tasks: campaign?.tasks.map((task) => ({
      kind: task.kind,
      threshold: task.threshold,
      reward: task.reward,
    })) ?? [{ kind: 'identity0', threshold: '', reward: '' }],
  };
}

const keep = (texts: Record<string, string>) =>
  Object.fromEntries(Object.entries(texts).filter(([, value]) => value.trim()));

export function CampaignEditor({
  campaign,
  onClose,
}: {
  campaign?: ConsoleCampaign;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  const [draft, setDraft] = useState<Draft>(() => draftOf(campaign));
  const [language, setLanguage] = useState('en');
  const saving = useEditorSave({ saved: t('rewards.saved'), queryKey: ['rewards'], onClose });
  const locked = Boolean(campaign?.started);
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const setText = (field: 'title' | 'description' | 'condition', lang: string, value: string) =>
    setDraft((current) => ({ ...current, [field]: { ...current[field], [lang]: value } }));
  const setTask = (index: number, change: Partial<TaskDraft>) =>
    setDraft((current) => ({
      ...current,
      tasks: current.tasks.map((task, at) => (at === index ? { ...task, ...change } : task)),
    }));
  const written = (lang: string) =>
    Boolean(draft.title[lang]?.trim() || draft.description[lang]?.trim());

  const save = async () => {
    const title = keep(draft.title);
    if (!title.en) {
      saving.setFailure(t('rewards.englishRequired'));
      setLanguage('en');
      return;
    }
    const condition = keep(draft.condition);
    const description = keep(draft.description);
    await saving.send(() =>
      api.call(consoleRewardsApi.saveCampaign, {
        id: campaign?.id,
        title,
        // Each language map is sent only when written (English is then required).
        description: Object.keys(description).length > 0 ? description : undefined,
        withdrawCondition: Object.keys(condition).length > 0 ? condition : undefined,
        // A started campaign's window goes back exactly as it was.
        startTime: locked ? campaign!.startTime : isoTime(draft.startTime),
        endTime: locked ? campaign!.endTime : isoTime(draft.endTime),
        currencyId: draft.currencyId,
        budget: draft.budget.trim(),
        tasks: draft.tasks.map((task) => ({
          kind: task.kind,
          threshold: task.threshold.trim() || '0',
          reward: task.reward.trim(),
        })),
      }),
    );
  };

  return (
    <EditorDrawer
      title={campaign ? t('rewards.edit') : t('rewards.new')}
      testId="campaign"
      saveText={t('rewards.save')}
      saving={saving}
      onSave={() => void save()}
      onClose={onClose}
    >
      <Form layout="vertical" component="div">
        {locked && (
          <Typography.Paragraph type="warning" data-testid="campaign-locked">
            {t('rewards.lockedHelp')}
          </Typography.Paragraph>
        )}
        <Space wrap size={16} align="start">
          <Form.Item label={t('rewards.field.start')} required>
            <Input
              type="datetime-local"
              value={draft.startTime}
              disabled={locked}
              onChange={(event) => set({ startTime: event.target.value })}
              data-testid="campaign-start"
            />
          </Form.Item>
          <Form.Item label={t('rewards.field.end')} required>
            <Input
              type="datetime-local"
              value={draft.endTime}
              disabled={locked}
              onChange={(event) => set({ endTime: event.target.value })}
              data-testid="campaign-end"
            />
          </Form.Item>
          <Form.Item label={t('rewards.field.currency')} required>
            <Select
              style={{ width: 140 }}
              value={draft.currencyId}
              disabled={locked}
              onChange={(currencyId: number) => set({ currencyId })}
              options={currencies.options}
              data-testid="campaign-currency"
            />
          </Form.Item>
          <Form.Item label={t('rewards.field.budget')} tooltip={t('rewards.budgetHelp')} required>
            <Input
              style={{ width: 160 }}
              value={draft.budget}
              inputMode="decimal"
              onChange={(event) => set({ budget: event.target.value })}
              data-testid="campaign-budget"
            />
          </Form.Item>
        </Space>
        <Typography.Title level={5}>{t('rewards.field.tasks')}</Typography.Title>
        {draft.tasks.map((task, index) => (
          <Space key={index} wrap align="start" data-testid={`campaign-task-${index}`}>
            <Select
              style={{ width: 280 }}
              value={task.kind}
              disabled={locked}
              onChange={(kind: RewardTaskKind) => setTask(index, { kind })}
              options={REWARD_TASK_KINDS.map((kind) => ({
                value: kind,
                label: t(`rewards.kind.${kind}`),
              }))}
              data-testid={`campaign-task-kind-${index}`}
            />
            <Input
              style={{ width: 160 }}
              placeholder={t('rewards.field.threshold')}
              value={task.threshold}
              disabled={locked || !REWARD_KINDS_WITH_AMOUNT.includes(task.kind)}
              onChange={(event) => setTask(index, { threshold: event.target.value })}
              data-testid={`campaign-task-threshold-${index}`}
            />
            <Input
              style={{ width: 140 }}
              placeholder={t('rewards.field.reward')}
              value={task.reward}
              disabled={locked}
              onChange={(event) => setTask(index, { reward: event.target.value })}
              data-testid={`campaign-task-reward-${index}`}
            />
            {!locked && draft.tasks.length > 1 && (
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('rewards.removeTask')}
                onClick={() => set({ tasks: draft.tasks.filter((_, at) => at !== index) })}
              />
            )}
          </Space>
        ))}
        {!locked && draft.tasks.length < 12 && (
          <div style={{ margin: '8px 0 16px' }}>
            <Button
              icon={<PlusOutlined />}
              onClick={() =>
                set({ tasks: [...draft.tasks, { kind: 'firstTrade', threshold: '', reward: '' }] })
              }
              data-testid="campaign-task-add"
            >
              {t('rewards.addTask')}
            </Button>
          </div>
        )}
        <Typography.Paragraph type="secondary">{t('rewards.languagesHelp')}</Typography.Paragraph>
        <LanguageTabs active={language} onChange={setLanguage} testId="campaign" written={written}>
          {(item, dir) => (
            <>
              <Form.Item label={t('rewards.field.title')} required={item.key === 'en'}>
                <Input
                  value={draft.title[item.key] ?? ''}
                  maxLength={120}
                  dir={dir}
                  onChange={(event) => setText('title', item.key, event.target.value)}
                  data-testid={`campaign-title-${item.key}`}
                />
              </Form.Item>
              <Form.Item label={t('rewards.field.description')}>
                <Input.TextArea
                  value={draft.description[item.key] ?? ''}
                  maxLength={2000}
                  rows={3}
                  dir={dir}
                  onChange={(event) => setText('description', item.key, event.target.value)}
                  data-testid={`campaign-description-${item.key}`}
                />
              </Form.Item>
              <Form.Item label={t('rewards.field.condition')} tooltip={t('rewards.conditionHelp')}>
                <Input.TextArea
                  value={draft.condition[item.key] ?? ''}
                  maxLength={500}
                  rows={2}
                  dir={dir}
                  disabled={locked}
                  onChange={(event) => setText('condition', item.key, event.target.value)}
                  data-testid={`campaign-condition-${item.key}`}
                />
              </Form.Item>
            </>
          )}
        </LanguageTabs>
      </Form>
    </EditorDrawer>
  );
}
