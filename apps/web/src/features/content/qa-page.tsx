/**
 * /pages/QA/QA: the questions and answers by category; the search box filters them (on the
 * server, in the app's language) as the user types; an answer opens under its question.
 */
import { useEffect, useState } from 'react';
import { Collapse, SearchBar } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';
import { ListStatus, listStateOf } from '../../components/status-views';
import { useQaList } from './api';
import { RichHtml } from './rich-html';
import './content.css';

const SEARCH_DELAY_MS = 300;

export default function QaPage() {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const qa = useQaList(keyword);
  const groups = qa.data ?? [];
  return (
    <div className="page" data-testid="qa-page">
      <PageHeader title={t('area_qa')} />
      <div className="content-search">
        <SearchBar
          placeholder={t('content_qaSearch')}
          value={typed}
          onChange={setTyped}
          onClear={() => setTyped('')}
          aria-label={t('content_qaSearch')}
          data-testid="qa-search"
        />
      </div>
      <ListStatus
        list={listStateOf(qa)}
        count={groups.length}
        empty={{
          testId: 'qa-empty',
          title: keyword ? t('content_qaNoMatch') : t('content_qaEmpty'),
        }}
      />
      {groups.map((group) => (
        <section key={group.id} className="content-qa-group" data-testid={`qa-group-${group.id}`}>
          <h2 className="content-group-title">{group.title || t('content_qaOther')}</h2>
          <Collapse accordion>
            {group.items.map((item) => (
              <Collapse.Panel
                key={String(item.id)}
                title={<span data-testid={`qa-question-${item.id}`}>{item.question}</span>}
              >
                <RichHtml html={item.answer} testId={`qa-answer-${item.id}`} />
              </Collapse.Panel>
            ))}
          </Collapse>
        </section>
      ))}
    </div>
  );
}
