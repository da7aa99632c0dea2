/** Placeholder: being built in this session. */
export default function AccountRecordPage() {
  return <div className="page" />;
}
