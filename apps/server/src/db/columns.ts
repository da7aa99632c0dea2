/**
 * Writing a row from an object. The column list is written once, snake_case and comma-separated as
 * in the statement, and the placeholders, the SET list and the parameters follow from it: each
 * value is read from the column's camelCase key; a missing value is NULL and a plain object (a
 * language map) goes as JSON. Table and column names are the repo's own text, never input.
 */

function columnNames(columns: string): string[] {
  return columns.split(',').map((column) => column.trim());
}

function camelCase(column: string): string {
  return column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** `$from, $from+1, …`: one placeholder a column, for an INSERT's VALUES. */
export function placeholders(columns: string, from = 1): string {
  return columnNames(columns)
    .map((_, index) => `$${from + index}`)
    .join(', ');
}

/** `column = $from, …`: an UPDATE's SET list. */
export function assignments(columns: string, from = 1): string {
  return columnNames(columns)
    .map((column, index) => `${column} = $${from + index}`)
    .join(', ');
}

/** The parameters of `columns`, in their order, from `values`. */
export function columnParams(columns: string, values: object): unknown[] {
  const byKey = values as Record<string, unknown>;
  return columnNames(columns).map((column) => {
    const value = byKey[camelCase(column)];
    if (value === undefined) return null;
    if (value !== null && Object.getPrototypeOf(value) === Object.prototype)
      return JSON.stringify(value);
    return value;
  });
}

/** One array a key, of that key's value in each item, in key order: the arrays of an `unnest(…)`. */
export function unnestParams<T>(items: readonly T[], keys: readonly (keyof T)[]): unknown[][] {
  return keys.map((key) => items.map((item) => item[key]));
}
