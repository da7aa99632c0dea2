/** Renders its children once its place on the page scrolls into view (then keeps them). */
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function WhenVisible({
  children,
  placeholder,
}: {
  children: ReactNode;
  placeholder: ReactNode;
}) {
  const [seen, setSeen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen]);
  return <div ref={ref}>{seen ? children : placeholder}</div>;
}
