/** Placeholder: being built in this session. */
export default function ChangeRecordPage() {
  return <div className="page" />;
}
