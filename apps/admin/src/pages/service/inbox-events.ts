/**
 * The inbox's live side: the console's event stream (lib/review-events.ts, queue `service`, one
 * event per change of a conversation with what happened) read while the inbox is open, and the
 * sound of a new customer message (a short Web Audio beep, no file to load), which the operator
 * may mute; the choice is kept in the browser.
 */
import { useEffect, useRef, useState } from 'react';
import { onQueueEvent, useReviewLive } from '../../lib/review-events';

export interface ServiceDeskEvent {
  /** The conversation. */
  id: number;
  type: 'message' | 'read' | 'typing' | 'assigned' | 'closed';
  sender?: 'user' | 'operator';
  messageId?: number;
}

const MUTED_KEY = 'bourse.console.serviceMuted';

let audio: AudioContext | undefined;

/** A short two-tone beep. */
export function beep(): void {
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [offset, frequency] of [
      [0, 880],
      [0.14, 1320],
    ] as const) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.2, now + offset + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.12);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(now + offset);
      oscillator.stop(now + offset + 0.13);
    }
  } catch {
    // No audio in this browser: the list still shows the message.
  }
}

export function useMuted(): [boolean, (muted: boolean) => void] {
  const [muted, setMuted] = useState(() => {
    try {
      return localStorage.getItem(MUTED_KEY) === '1';
    } catch {
      return false;
    }
  });
  return [
    muted,
    (next) => {
      setMuted(next);
      try {
        localStorage.setItem(MUTED_KEY, next ? '1' : '0');
      } catch {
        // kept for this page only
      }
    },
  ];
}

/**
 * Hands each conversation change to `onEvent` while the inbox is open, from the console's one
 * event stream (hooks/use-review-events.ts keeps it open while a support operator or an admin is
 * signed in), and calls `onReconnect` when the stream is live again after a break (changes may
 * have been missed). Beeps for a customer's message unless muted; answers how many times it did
 * (the page shows it for tests).
 */
export function useServiceEvents(
  onEvent: (event: ServiceDeskEvent) => void,
  onReconnect: () => void,
  muted: boolean,
): { live: boolean; beeps: number } {
  const live = useReviewLive();
  const [beeps, setBeeps] = useState(0);
  const handlers = useRef({ onEvent, onReconnect, muted });
  handlers.current = { onEvent, onReconnect, muted };
  useEffect(
    () =>
      onQueueEvent((event) => {
        if (event.queue !== 'service') return;
        const data = event.data as Omit<ServiceDeskEvent, 'id'> | undefined;
        if (!data) return;
        const deskEvent = { ...data, id: event.id };
        if (deskEvent.type === 'message' && deskEvent.sender === 'user') {
          setBeeps((count) => count + 1);
          if (!handlers.current.muted) beep();
        }
        handlers.current.onEvent(deskEvent);
      }),
    [],
  );
  // Live again after a break: what changed meanwhile is read again.
  const wasLive = useRef(live);
  useEffect(() => {
    if (live === 'live' && wasLive.current === 'off') handlers.current.onReconnect();
    wasLive.current = live;
  }, [live]);
  return { live: live === 'live', beeps };
}
