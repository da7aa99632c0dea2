/**
 * The audit log as CSV (RFC 4180): UTF-8 with a byte-order mark, so spreadsheet apps read Chinese
 * and every other script; one line per entry, before and after as JSON. A cell that a spreadsheet
 * would take for a formula (starting with = + - @, a tab or a carriage return) is written with a
 * leading apostrophe, so opening an export never runs what an operator or a user typed.
 */
import type { AuditEntry } from '@bourse/shared';

const BOM = '\uFEFF';
export const AUDIT_CSV_COLUMNS = [
  'id',
  'time',
  'operatorId',
  'operatorName',
  'action',
  'targetType',
  'targetId',
  'ip',
  'before',
  'after',
] as const;

function cell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

export function auditCsv(entries: readonly AuditEntry[]): string {
  const lines = [AUDIT_CSV_COLUMNS.join(',')];
  for (const entry of entries) {
    lines.push(
      [
        entry.id,
        entry.createTime,
        entry.operatorId,
        entry.operatorName,
        entry.action,
        entry.targetType,
        entry.targetId,
        entry.ip,
        json(entry.before),
        json(entry.after),
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${BOM}${lines.join('\r\n')}\r\n`;
}
