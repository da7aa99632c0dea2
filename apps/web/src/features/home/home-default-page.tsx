/**
 * Home, card layout (/pages/tabs/home/home): every block in its own card, the assets first with
 * the money actions, then banners, the notice, shortcuts, popular products, news and services.
 */
import { Banners } from './banners';
import { usePageConfig } from '../../hooks/use-page-config';
import {
  AssetsBlock,
  HOME_CONFIG_PATH,
  NewsSlot,
  NoticeBlock,
  ServicesGrid,
  Shortcuts,
  SiteHeader,
  type HomeBlocks,
} from './blocks';
import { RecommendedProducts } from './recommended-products';
import './layouts.css';

export default function HomeDefaultPage({ blocks = {} }: { blocks?: HomeBlocks }) {
  const visible = usePageConfig(HOME_CONFIG_PATH);
  return (
    <div className="page layout-home layout-home-cards" data-testid="home-default-page">
      {visible('header') && <SiteHeader />}
      <div className="page-body stack">
        {visible('assets') && <AssetsBlock look="hero" />}
        {visible('banner') && <Banners />}
        {visible('notice') && <NoticeBlock blocks={blocks} />}
        {visible('shortcut') && <Shortcuts look="grid" />}
        {visible('recommend') && <RecommendedProducts limit={6} />}
        <NewsSlot blocks={blocks} limit={3} />
        <ServicesGrid />
      </div>
    </div>
  );
}
