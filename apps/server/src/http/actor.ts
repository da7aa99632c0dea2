/**
 * Who a service acts for: a user and the book of their session (live money or the demo account).
 * Services take an Actor, never the HTTP session, so the operator console, the scheduler and copy
 * trading can call them the same way (ARCHITECTURE convention 9). Routes get it from the Router.
 */

/** The same books as the ledger's (`ledger.Book`). */
export type ActorBook = 'live' | 'demo';

export interface Actor {
  readonly userId: number;
  readonly book: ActorBook;
}

/** The actor of a signed-in session: its user, and the demo book for a demo session. */
export function actorOf(session: { userId: number; accountType: 0 | 2 }): Actor {
  return { userId: session.userId, book: session.accountType === 2 ? 'demo' : 'live' };
}
