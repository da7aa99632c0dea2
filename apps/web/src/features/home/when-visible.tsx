/**
 * Renders its children once their place comes into view. Home-k, the app's first screen, loads
 * its news (code and texts, ~50 KB gzip) only when the user scrolls to it, not with the first
 * screen (bench/web-size.mjs counts every script loaded by network idle: 241.9 KB with the news
 * loaded at once, 193.0 without, the day of issue 21).
 */
import { useEffect, useRef, useState } from 'react';

export function WhenVisible({
  children,
  minHeight = 120,
}: {
  children: React.ReactNode;
  /** The place held until then, so the page does not jump. */
  minHeight?: number;
}) {
  const place = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  if (near) return <>{children}</>;
  return <div ref={place} style={{ minHeight }} aria-hidden="true" />;
}
