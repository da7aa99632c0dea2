/** Placeholder: being built in this session. */
export default function LinePayPage() {
  return <div className="page" />;
}
