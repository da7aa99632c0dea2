/** Placeholder: being built in this session. */
export default function BindBankCardPage() {
  return <div className="page" />;
}
