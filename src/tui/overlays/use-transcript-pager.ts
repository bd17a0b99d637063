// Holds the open sub-agent transcript pager (or none). A ref mirrors the state so that keys arriving in
// one stdin chunk each see the result of the one before, as in use-picker.ts.
import { useCallback, useRef, useState } from "react";
import type { Action } from "../keys/keybindings.js";
import { type TranscriptPagerState, transcriptPagerKey } from "./transcript-pager.js";

export interface TranscriptPagerHandle {
	pager: TranscriptPagerState | undefined;
	isOpen(): boolean;
	open(state: TranscriptPagerState): void;
	/** The open pager replaced by `update(current)` (a sub-agent's transcript went on); nothing when closed. */
	update(update: (current: TranscriptPagerState) => TranscriptPagerState): void;
	/** A pager action (or none) with `page` lines on a page; pagerClose closes it. */
	key(action: Action | undefined, page: number): void;
}

export function useTranscriptPager(): TranscriptPagerHandle {
	const ref = useRef<TranscriptPagerState | undefined>(undefined);
	const [pager, setState] = useState<TranscriptPagerState | undefined>(undefined);
	const set = useCallback((next: TranscriptPagerState | undefined) => {
		ref.current = next;
		setState(next);
	}, []);
	const key = useCallback(
		(action: Action | undefined, page: number) => {
			if (!ref.current) return;
			const next = transcriptPagerKey(ref.current, action, page);
			if (next !== ref.current) set(next);
		},
		[set],
	);
	const update = useCallback(
		(next: (current: TranscriptPagerState) => TranscriptPagerState) => {
			if (!ref.current) return;
			const updated = next(ref.current);
			if (updated !== ref.current) set(updated);
		},
		[set],
	);
	return { pager, isOpen: () => ref.current !== undefined, open: set, update, key };
}
