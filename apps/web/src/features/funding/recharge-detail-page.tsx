/** Placeholder: being built in this session. */
export default function RechargeDetailPage() {
  return <div className="page" />;
}
