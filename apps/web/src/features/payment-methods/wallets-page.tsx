/** Placeholder: being built in this session. */
export default function WalletsPage() {
  return <div className="page" />;
}
