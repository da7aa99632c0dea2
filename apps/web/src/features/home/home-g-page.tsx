/**
 * Home, market layout (/pages/tabs/home/home-g): the movers as tiles and the quote list first,
 * then the banners, the assets strip, shortcuts, services and news.
 */
import { Banners } from './banners';
import { usePageConfig } from '../../hooks/use-page-config';
import {
  AssetsBlock,
  HOME_CONFIG_PATH,
  NewsSlot,
  NoticeBlock,
  SectionHeading,
  ServicesGrid,
  Shortcuts,
  SiteHeader,
  type HomeBlocks,
} from './blocks';
import { MarketMovers, RecommendedProducts } from './recommended-products';
import { navigateTo } from '../../lib/navigation';
import './layouts.css';

export default function HomeGPage({ blocks = {} }: { blocks?: HomeBlocks }) {
  const visible = usePageConfig(HOME_CONFIG_PATH);
  return (
    <div className="page layout-home layout-home-market" data-testid="home-g-page">
      {visible('header') && <SiteHeader look="centered" />}
      <div className="page-body stack">
        {visible('notice') && <NoticeBlock blocks={blocks} />}
        {visible('recommend') && (
          <>
            <SectionHeading title="layout_topMovers" more={() => navigateTo('quotes')} />
            <MarketMovers count={3} />
            <RecommendedProducts limit={8} title="tab_quotes" />
          </>
        )}
        {visible('banner') && <Banners />}
        {visible('assets') && <AssetsBlock look="strip" />}
        {visible('shortcut') && <Shortcuts look="grid" />}
        <ServicesGrid />
        <NewsSlot blocks={blocks} limit={3} />
      </div>
    </div>
  );
}
