/**
 * A state's tag on a list row (`list-tag`, toned: accent, danger…), with its state in
 * `data-status` for tests and styles.
 */
export function ListTag({
  tone,
  testId,
  status,
  text,
}: {
  tone?: string;
  testId: string;
  status: number | string;
  text: string;
}) {
  return (
    <span
      className={tone ? `list-tag list-tag-${tone}` : 'list-tag'}
      data-testid={testId}
      data-status={status}
    >
      {text}
    </span>
  );
}
