/** Placeholder: being built in this session. */
export default function RechargeRecordPage() {
  return <div className="page" />;
}
