// The one hook that subscribes to the session. Events update the SessionView at once (cheap); React
// hears about per-token events at most once a frame of the app's clock (frame-scheduler.ts): a model streaming 200
// tokens a second gives 20 renders, not 200 (docs/ink.md §1: Ink lays out on every commit, unthrottled).
import { useEffect, useMemo, useReducer } from "react";
import type { AgentSessionApi, SessionState } from "../../session/types.js";
import { frameClock } from "../frame/frame-clock.js";
import { createFrameScheduler, createLiveTick, type LiveTick } from "../frame/frame-scheduler.js";
import { frameCounts } from "../ink/index.js";
import { SessionView } from "../transcript/session-view.js";

/**
 * The frame, FRAME_MS of src/tui/frame/frame-clock.ts: 20 frames a second while text streams, smooth to the
 * eye, and measured against 30 fps it writes a third fewer bytes (89 → 60 per token at 200 tok/s) for
 * 12% less CPU. Keys are never held back.
 */
export { FRAME_MS } from "../frame/frame-clock.js";

export interface SessionSnapshot {
	view: SessionView;
	state: SessionState;
	/** Changes whenever anything on screen but the live tail may have changed. */
	frame: number;
	/** Bumped for frames in which only the streaming tail moved (LiveTailMessage and LiveStatus redraw alone). */
	liveTick: LiveTick;
}

export function useSession(session: AgentSessionApi): SessionSnapshot {
	const view = useMemo(() => new SessionView(session), [session]);
	const [frame, bump] = useReducer((n: number) => n + 1, 0);
	// On the frame clock's time: the busy tick compares the two.
	const liveTick = useMemo(() => createLiveTick(frameClock.now), []);

	useEffect(() => {
		// The view's structure as of the last App render: while it stands still, a frame is the tail's alone.
		let drawn = -1;
		const flush = () => {
			if (view.structure === drawn) return liveTick.bump();
			frameCounts?.add("flush.app");
			drawn = view.structure;
			bump();
		};
		const frames = createFrameScheduler({ clock: frameClock, flush });
		const unsubscribe = session.subscribe((event) => {
			// A sub-agent's tokens are for json/rpc clients: its block shows tokens per finished reply, so
			// they would only cost a frame each.
			if (event.type === "subagent_message_update") return;
			view.handle(event);
			frameCounts?.add(event.type === "message_update" ? `event.${event.assistantMessageEvent.type}` : `event.${event.type}`);
			frames.onEvent(event.type);
		});
		return () => {
			unsubscribe();
			frames.dispose();
		};
	}, [session, view, liveTick]);

	return { view, state: session.getState(), frame, liveTick };
}
