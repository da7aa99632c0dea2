import { Spin } from 'antd';

/** While a page's code or its first answer is on its way. */
export function PageLoading() {
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: 240 }}>
      <Spin size="large" />
    </div>
  );
}
