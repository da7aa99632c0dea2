/** Placeholder: being built in this session. */
export default function ExchangePage() {
  return <div className="page" />;
}
