/**
 * Home, minimal layout (/pages/tabs/home/home-h): a greeting, the total large on the page itself,
 * a row of shortcut chips, five popular products and the latest news. No cards, no banners.
 */
import { usePageConfig } from '../../hooks/use-page-config';
import {
  AssetsBlock,
  HOME_CONFIG_PATH,
  NewsSlot,
  NoticeBlock,
  Shortcuts,
  SiteHeader,
  type HomeBlocks,
} from './blocks';
import { RecommendedProducts } from './recommended-products';
import './layouts.css';

export default function HomeHPage({ blocks = {} }: { blocks?: HomeBlocks }) {
  const visible = usePageConfig(HOME_CONFIG_PATH);
  return (
    <div className="page layout-home layout-home-minimal" data-testid="home-h-page">
      {visible('header') && <SiteHeader look="greeting" />}
      <div className="page-body stack">
        {visible('assets') && <AssetsBlock look="big" />}
        {visible('shortcut') && <Shortcuts look="chips" />}
        {visible('notice') && <NoticeBlock blocks={blocks} />}
        {visible('recommend') && <RecommendedProducts limit={5} flat />}
        <NewsSlot blocks={blocks} limit={3} />
      </div>
    </div>
  );
}
