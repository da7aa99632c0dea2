import { useEffect, useState } from 'react';

/** Seconds left of a countdown (the verification code's 60 s resend wait). */
export function useCountdown(): [number, (seconds: number) => void] {
  const [endsAt, setEndsAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endsAt <= now) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [endsAt, now]);
  const left = Math.max(0, Math.ceil((endsAt - now) / 1000));
  return [
    left,
    (seconds) => {
      const start = Date.now();
      setNow(start);
      setEndsAt(start + seconds * 1000);
    },
  ];
}
