/** Placeholder: being built in this session. */
export default function RechargePage() {
  return <div className="page" />;
}
