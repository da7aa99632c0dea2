/**
 * The scrolling notice: the lines operators wrote (in the app's language), one after another in
 * one moving bar; a line with a route opens it. Nothing while there is no line.
 */
import { NoticeBar as MobileNoticeBar } from 'antd-mobile';
import { SoundOutline } from 'antd-mobile-icons';
import { paths, type RouteName } from '../../config/paths';
import { isBuilt, navigateTo } from '../../lib/navigation';
import { useNotices } from './api';
import './content.css';

function routeOf(route: string): RouteName | undefined {
  return route in paths && isBuilt(route as RouteName) ? (route as RouteName) : undefined;
}

export function NoticeBar(): React.JSX.Element | null {
  const { data } = useNotices();
  if (!data || data.length === 0) return null;
  return (
    <MobileNoticeBar
      className="content-notice"
      data-testid="notice-bar"
      icon={<SoundOutline aria-hidden="true" />}
      color="alert"
      content={
        <span className="content-notice-lines" role="marquee">
          {data.map((notice) => {
            const route = routeOf(notice.route);
            return route ? (
              <button
                key={notice.id}
                type="button"
                className="content-notice-line link"
                onClick={() => navigateTo(route)}
              >
                {notice.text}
              </button>
            ) : (
              <span key={notice.id} className="content-notice-line">
                {notice.text}
              </span>
            );
          })}
        </span>
      }
    />
  );
}
