/**
 * Home, list layout (/pages/tabs/home/home-j): a one-line assets strip and a row of shortcut
 * chips over the full list of popular products, the notice above it and the news below.
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

export default function HomeJPage({ blocks = {} }: { blocks?: HomeBlocks }) {
  const visible = usePageConfig(HOME_CONFIG_PATH);
  return (
    <div className="page layout-home layout-home-list" data-testid="home-j-page">
      {visible('header') && <SiteHeader />}
      <div className="page-body stack">
        {visible('assets') && <AssetsBlock look="strip" />}
        {visible('shortcut') && <Shortcuts look="chips" />}
        {visible('notice') && <NoticeBlock blocks={blocks} />}
        {visible('recommend') && <RecommendedProducts />}
        <NewsSlot blocks={blocks} limit={5} />
      </div>
    </div>
  );
}
