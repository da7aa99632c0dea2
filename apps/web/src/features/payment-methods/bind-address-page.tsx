/** Placeholder: being built in this session. */
export default function BindAddressPage() {
  return <div className="page" />;
}
