/** Placeholder: being built in this session. */
export default function BankCardListPage() {
  return <div className="page" />;
}
