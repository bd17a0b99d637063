// The live tail's two parts (the streaming message's open tail and the status line under it) and the
// writer that redraws them without React (live-frame.ts), one per App (per LiveTick). A frame in which
// only the tail moved bumps the LiveTick; the writer draws it, or when it cannot, bumps `react`, the
// tick the two components subscribe to, and React draws it as before.
import { useRef } from "react";
import type { LiveTick } from "../frame-scheduler.js";
import { inkFor } from "./ink-instances.js";
import { type InkElement, LiveFrameWriter, type LivePart } from "./live-frame.js";

/** One part; its component sets `rows` (over its latest props) on every render. */
export interface RegionPart extends LivePart {
	/** For the part's Box: `ref={part.ref}`. */
	ref: (box: InkElement | null) => void;
}

export interface LiveRegion {
	/** React's own tick: the frames the writer did not draw. */
	react: { subscribe(listener: () => void): () => void; get(): number };
	tail: RegionPart;
	status: RegionPart;
	/** Frames the writer drew. */
	drawn(): number;
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

const regions = new WeakMap<LiveTick, LiveRegion>();

/** The region of the App whose tail frames `tick` counts. */
export function liveRegionFor(tick: LiveTick): LiveRegion {
	let region = regions.get(tick);
	if (region) return region;
	let reactCount = 0;
	let drawn = 0;
	const listeners = new Set<() => void>();
	const tail = regionPart();
	const status = regionPart();
	const writer = new LiveFrameWriter([tail, status]);
	const created: LiveRegion = {
		react: {
			subscribe(listener) {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
			get: () => reactCount,
		},
		tail,
		status,
		drawn: () => drawn,
		stdout: undefined,
	};
	tick.subscribe(() => {
		if (created.stdout && writer.draw(inkFor(created.stdout))) {
			drawn++;
			return;
		}
		reactCount++;
		for (const listener of listeners) listener();
	});
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
