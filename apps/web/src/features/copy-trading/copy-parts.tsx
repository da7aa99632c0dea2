/**
 * Pieces of the copy-trading screens: a label and its value, amounts in the trade currency, a
 * trader's avatar and name, the states of traders, relations, copies and applications as tags,
 * the period and sort words, a statistic, a holding time, and a small curve of the period for the
 * list. Figures, dates and codes stay left-to-right islands in Arabic.
 */
import {
  APPLICATION_STATUS,
  RELATION_STATUS,
  TASK_STATUS,
  TRADER_STATUS,
  formatDateTime,
  formatMessage,
  isolateLtr,
  type CopyPeriod,
  type CopySort,
} from '@bourse/shared';
import { LabelRow, type LabelRowProps } from '../../components/label-row';
import { Num } from '../../components/status-views';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { currencyScale, money, signedMoney, tradeCurrencyId } from '../../lib/trade';
import { holdParts, toneOf } from './figures';
import '../../components/card-list.css';
import './copy-trading.css';
import { ListTag as Tag } from '../../components/list-tag';

const LINE_CLASSES = { row: 'ct-line', strong: 'ct-line-strong', value: 'ct-line-value' };

/** A label and its value on one line; figures and dates stay one left-to-right island. */
export function Line(props: LabelRowProps) {
  return <LabelRow {...props} classes={LINE_CLASSES} />;
}

/** Decimals of the trade currency (the statistics and copies are in it). */
export function tradeScale(): number {
  return currencyScale(tradeCurrencyId()) ?? 2;
}

/** "1,000.00 USDT". */
export function amountText(value: string | null | undefined, currency: string, scale?: number) {
  return `${money(value, scale ?? tradeScale())} ${currency}`;
}

/** "+12.50 USDT" (a P&L). */
export function pnlText(value: string | null | undefined, currency: string, scale?: number) {
  return `${signedMoney(value, scale ?? tradeScale())} ${currency}`;
}

/** A figure coloured by its sign. */
export function Toned({
  value,
  children,
  testId,
}: {
  value: string | null | undefined;
  children: React.ReactNode;
  testId?: string;
}) {
  const tone = toneOf(value);
  return (
    <Num className={tone ? `ct-${tone}` : undefined} testId={testId}>
      {children}
    </Num>
  );
}

/**
 * A message with figures (amounts, rates, counts) filled in, each kept one left-to-right island,
 * so in Arabic "30%" does not read "%30"; texts (names, reasons) go in with `formatMessage`.
 */
export function figureMessage(template: string, figures: readonly (string | number)[]): string {
  return formatMessage(
    template,
    figures.map((figure) => isolateLtr(String(figure))),
  );
}

/** A local date and time (yyyy/MM/dd HH:mm). */
export function timeText(iso: string | null | undefined): string {
  return iso ? formatDateTime(iso) : '- -';
}

/** The trader's picture, or the first letter of their name. */
export function Avatar({ name, src, size = 40 }: { name: string; src?: string; size?: number }) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  if (src) return <img className="ct-avatar" src={src} alt="" style={style} />;
  return (
    <span className="ct-avatar" style={style} aria-hidden="true">
      {Array.from(name.trim())[0]?.toUpperCase() ?? '?'}
    </span>
  );
}

// ------------------------------------------------------------------ words

export const PERIODS: readonly CopyPeriod[] = ['7', '30', '90', 'all'];
export const PERIOD_KEY: Record<CopyPeriod, string> = {
  '7': 'copy_period7',
  '30': 'copy_period30',
  '90': 'copy_period90',
  all: 'copy_periodAll',
};

export const SORTS: readonly CopySort[] = ['roi', 'pnl', 'followers', 'drawdown'];
export const SORT_KEY: Record<CopySort, string> = {
  roi: 'copy_roi',
  pnl: 'copy_pnl',
  followers: 'copy_followers',
  drawdown: 'copy_maxDrawdown',
};

/** "2d 3h", "4h 10m", "12m 5s": the language's words, the figures in its direction. */
export function holdText(seconds: number): string {
  const { unit, value, rest } = holdParts(seconds);
  const key = unit === 'd' ? 'copy_holdDays' : unit === 'h' ? 'copy_holdHours' : 'copy_holdMinutes';
  return figureMessage(translate(key), [value, rest]);
}

/** "Fixed 100.00 USDT per copy" or "0.5 × the trader's margin". */
export function modeText(relation: {
  mode: number;
  amount: string | null;
  ratio: string | null;
  currency: string;
  scale: number;
}): string {
  return relation.mode === 1
    ? figureMessage(translate('copy_modeFixedText'), [
        amountText(relation.amount, relation.currency, relation.scale),
      ])
    : figureMessage(translate('copy_modeRatioText'), [relation.ratio ?? '- -']);
}

// ------------------------------------------------------------------ states

export function TraderStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  if (status === TRADER_STATUS.active) return null;
  return (
    <Tag tone="danger" testId="copy-trader-status" status={status} text={t('copy_suspended')} />
  );
}

export function RelationStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const active = status === RELATION_STATUS.active;
  return (
    <Tag
      tone={active ? 'success' : undefined}
      testId="copy-relation-status"
      status={status}
      text={t(active ? 'copy_statusActive' : 'copy_statusEnded')}
    />
  );
}

const COPY_STATUS: Record<number, [string, string | undefined]> = {
  [TASK_STATUS.pending]: ['copy_copyPending', 'accent'],
  [TASK_STATUS.done]: ['copy_copyOpened', 'success'],
  [TASK_STATUS.failed]: ['copy_copyFailed', 'danger'],
  [TASK_STATUS.skipped]: ['copy_copySkipped', undefined],
};

export function CopyStatusTag({ status, closed }: { status: number; closed: boolean }) {
  const { t } = useTranslation();
  const [key, tone] =
    status === TASK_STATUS.done && closed
      ? ['copy_copyClosed', undefined]
      : (COPY_STATUS[status] ?? COPY_STATUS[TASK_STATUS.pending]!);
  return <Tag tone={tone} testId="copy-copy-status" status={status} text={t(key)} />;
}

const APPLICATION: Record<number, [string, string | undefined]> = {
  [APPLICATION_STATUS.pending]: ['copy_applicationPending', 'accent'],
  [APPLICATION_STATUS.approved]: ['copy_applicationApproved', 'success'],
  [APPLICATION_STATUS.rejected]: ['copy_applicationRejected', 'danger'],
};

export function ApplicationStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const [key, tone] = APPLICATION[status] ?? APPLICATION[APPLICATION_STATUS.pending]!;
  return <Tag tone={tone} testId="copy-application-status" status={status} text={t(key)} />;
}

/** The demo book's mark on a relation, a copy or a settlement of it. */
export function BookTag({ book }: { book: string }) {
  const { t } = useTranslation();
  if (book !== 'demo') return null;
  return <Tag tone="accent" testId="copy-book" status={book} text={t('copy_demoBook')} />;
}

// ------------------------------------------------------------------ figures

/** A statistic: its label over its value. */
export function Stat({
  label,
  children,
  testId,
  end = false,
}: {
  label: string;
  children: React.ReactNode;
  testId?: string;
  end?: boolean;
}) {
  return (
    <div className={end ? 'ct-stat ct-stat-end' : 'ct-stat'} data-testid={testId}>
      <span className="muted">{label}</span>
      <strong>{children}</strong>
    </div>
  );
}

/** The period's equity index as a small line (drawn, not read: the figures are beside it). */
export function Spark({ points }: { points: readonly string[] }) {
  const values = points.map(Number).filter(Number.isFinite);
  if (values.length < 2) return <span className="ct-spark" aria-hidden="true" />;
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const line = values
    .map((value, index) => {
      const x = (index / (values.length - 1)) * 100;
      const y = 28 - ((value - low) / span) * 26;
      return `${x.toFixed(2)},${y.toFixed(2)}`;
    })
    .join(' ');
  const rising = values[values.length - 1]! >= values[0]!;
  return (
    <svg className="ct-spark" viewBox="0 0 100 30" preserveAspectRatio="none" aria-hidden="true">
      <polyline
        points={line}
        fill="none"
        stroke={rising ? 'var(--success)' : 'var(--danger)'}
        strokeWidth="2"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
