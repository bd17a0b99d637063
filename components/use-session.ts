// The one hook that subscribes to the session. Events update the SessionView at once (cheap); React
// hears about per-token events at most every FRAME_MS (frame-scheduler.ts): a model streaming 200
// tokens a second gives 20 renders, not 200 (docs/ink.md §1: Ink lays out on every commit, unthrottled).
import { useEffect, useMemo, useReducer } from "react";
import type { AgentSessionApi, SessionState } from "../src/session/types.js";
import { createFrameScheduler } from "./frame-scheduler.js";
import { SessionView } from "./session-view.js";

/**
 * 20 frames a second while text streams: smooth to the eye, and measured against 30 fps it writes a
 * third fewer bytes (89 → 60 per token at 200 tok/s) for 12% less CPU. Keys are never held back.
 */
export const FRAME_MS = 50;

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
		const frames = createFrameScheduler({ frameMs: FRAME_MS, flush: bump });
		const unsubscribe = session.subscribe((event) => {
			view.handle(event);
			frames.onEvent(event.type);
		});
		return () => {
			unsubscribe();
			frames.dispose();
		};
	}, [session, view]);

	return { view, state: session.getState(), frame };
}
