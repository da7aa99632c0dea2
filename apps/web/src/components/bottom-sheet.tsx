/** A sheet sliding up from the bottom, as wide as the app's frame and in its colours. */
import { Popup, type PopupProps } from 'antd-mobile';

const SHEET_STYLE: React.CSSProperties = {
  background: 'var(--surface)',
  color: 'var(--text)',
  borderTopLeftRadius: 16,
  borderTopRightRadius: 16,
  maxWidth: 'var(--frame-width)',
  margin: '0 auto',
  insetInline: 0,
};

export function BottomSheet(props: Omit<PopupProps, 'bodyStyle'>) {
  return <Popup {...props} bodyStyle={SHEET_STYLE} />;
}
