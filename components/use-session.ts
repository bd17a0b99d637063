// The one hook that subscribes to the session. Events update the SessionView at once (cheap), but
// React hears about them at most every FRAME_MS: a model streaming 200 tokens a second gives ~30
// renders, not 200 (STACK.md §2: Ink lays out on every commit, unthrottled).
import { useEffect, useMemo, useReducer } from "react";
import type { AgentSessionApi, SessionState } from "../src/session/types.js";
import { SessionView } from "./session-view.js";

/** ~30 frames a second. */
export const FRAME_MS = 33;

export interface SessionSnapshot {
	view: SessionView;
	state: SessionState;
	/** Changes whenever anything on screen may have changed. */
	frame: number;
}

export function useSession(session: AgentSessionApi): SessionSnapshot {
	const view = useMemo(() => new SessionView(session), [session]);
	const [frame, bump] = useReducer((n: number) => n + 1, 0);

	useEffect(() => {
		let timer: NodeJS.Timeout | undefined;
		let lastFlush = 0;
		const flush = () => {
			timer = undefined;
			lastFlush = Date.now();
			bump();
		};
		const unsubscribe = session.subscribe((event) => {
			view.handle(event);
			if (timer) return;
			// Leading edge after a quiet spell (a key press feels instant), trailing edge while busy.
			const wait = Math.max(0, FRAME_MS - (Date.now() - lastFlush));
			timer = setTimeout(flush, wait);
		});
		return () => {
			unsubscribe();
			if (timer) clearTimeout(timer);
		};
	}, [session, view]);

	return { view, state: session.getState(), frame };
}
