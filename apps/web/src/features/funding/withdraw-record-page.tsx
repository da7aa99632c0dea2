/** Placeholder: being built in this session. */
export default function WithdrawRecordPage() {
  return <div className="page" />;
}
