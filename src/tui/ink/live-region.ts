// The live tail's two parts (the streaming message's open tail and the status line under it) and the
// writer that redraws them without React (live-frame.ts), one per App (per LiveTick). A frame in which
// only the tail moved bumps the LiveTick; the writer draws it, or when it cannot, bumps `react`, the
// tick the two components subscribe to, and React draws it as before. Blocks of the reply that closed
// in such a frame are history React has not printed: the writer prints them above the live region in
// the same frame, or when it cannot, bumps `history.react`, the App's tick, and <Static> prints them.
import { useRef } from "react";
import type { LiveTick } from "../frame/frame-scheduler.js";
import { frameCounts } from "./frame-counts.js";
import { inkFor } from "./ink-instances.js";
import { type InkElement, LiveFrameWriter, type LivePart } from "./live-frame.js";

/** One part; its component sets `rows` (over its latest props) on every render. */
export interface RegionPart extends LivePart {
	/** For the part's Box: `ref={part.ref}`. */
	ref: (box: InkElement | null) => void;
}

/** History the App has not printed, as the App's <Static> would print it (set by use-history-batches.ts). */
export interface RegionHistory {
	/** Items of the view's history printed so far, by React or the writer. */
	printed: number;
	/**
	 * The text for the items from `printed` on (undefined when only React may print them), the width it
	 * is wrapped to and the count it ends at; undefined when there are none.
	 */
	pending(): { text: string | undefined; columns: number; to: number } | undefined;
	/** The App's tick: new history the writer could not print. */
	react: { subscribe(listener: () => void): () => void; get(): number };
}

export interface LiveRegion {
	/** React's own tick: the frames the writer did not draw. */
	react: { subscribe(listener: () => void): () => void; get(): number };
	tail: RegionPart;
	status: RegionPart;
	history: RegionHistory;
	/** Frames the writer drew. */
	drawn(): number;
	/**
	 * The App renders in this turn anyway (set by useBusyTick: running tools' clocks are due): React
	 * draws the tail frame in that render, as without the writer, rather than the writer drawing a frame
	 * that render's own frame replaces at once.
	 */
	appRenders: () => boolean;
	/** The stdout the App draws on (useStdout), set by the components as they render. */
	stdout: object | undefined;
}

function regionPart(): RegionPart {
	const part: RegionPart = {
		box: null,
		rows: () => [],
		ref: (box) => {
			part.box = box;
		},
	};
	return part;
}

/** A counter React subscribes to (useSyncExternalStore). */
function reactTick() {
	let count = 0;
	const listeners = new Set<() => void>();
	return {
		subscribe(listener: () => void) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		get: () => count,
		bump() {
			count++;
			for (const listener of listeners) listener();
		},
	};
}

const regions = new WeakMap<LiveTick, LiveRegion>();

export const never = (): boolean => false;

/** The region of the App whose tail frames `tick` counts. */
export function liveRegionFor(tick: LiveTick): LiveRegion {
	let region = regions.get(tick);
	if (region) return region;
	let drawn = 0;
	const react = reactTick();
	const app = reactTick();
	const tail = regionPart();
	const status = regionPart();
	const writer = new LiveFrameWriter([tail, status]);
	const history: RegionHistory = { printed: 0, pending: () => undefined, react: { subscribe: app.subscribe, get: app.get } };
	const created: LiveRegion = {
		react: { subscribe: react.subscribe, get: react.get },
		tail,
		status,
		history,
		drawn: () => drawn,
		appRenders: never,
		stdout: undefined,
	};
	tick.subscribe(() => {
		if (!created.appRenders() && draw()) {
			drawn++;
			frameCounts?.add("writer.drew");
			return;
		}
		// New history goes through the App (its render draws the tail and the status too).
		if (history.pending()) {
			frameCounts?.add("writer.leftHistoryToApp");
			app.bump();
		} else {
			frameCounts?.add("writer.leftToReact");
			react.bump();
		}
	});
	/** The writer draws the frame, printing new history with it; false when React must. */
	const draw = (): boolean => {
		if (!created.stdout) return false;
		const fresh = history.pending();
		if (!fresh) return writer.draw(inkFor(created.stdout));
		const { text, columns, to } = fresh;
		if (text === undefined) return false;
		return writer.draw(inkFor(created.stdout), {
			text,
			columns,
			printed: () => {
				history.printed = to;
			},
		});
	};
	regions.set(tick, created);
	region = created;
	return region;
}

/**
 * The key of a part's Box. React updates a <Text> only when its text differs from what React itself
 * rendered last; the writer may have put other text there since. Then (same text as React's last, a
 * frame drawn since) the key changes and React mounts a fresh Box, so Ink's tree never keeps the
 * writer's text under React's.
 */
export function usePartKey(region: LiveRegion | undefined, text: string): number {
	const last = useRef({ text: undefined as string | undefined, drawn: 0, key: 0 });
	if (!region) return 0;
	const drawn = region.drawn();
	const key = text === last.current.text && drawn !== last.current.drawn ? last.current.key + 1 : last.current.key;
	last.current = { text, drawn, key };
	return key;
}
