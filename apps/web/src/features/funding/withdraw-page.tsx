/** Placeholder: being built in this session. */
export default function WithdrawPage() {
  return <div className="page" />;
}
