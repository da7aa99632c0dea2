/** Placeholder: being built in this session. */
export default function AssetsComponentPage() {
  return <div className="page" />;
}
