// Holds the open picker (or none). A ref mirrors the state so that keys arriving in one stdin chunk
// each see the result of the one before, as in use-editor.ts.
import { useCallback, useRef, useState } from "react";
import type { Intent } from "../keys/key-map.js";
import { type PickerState, pickerKey, withQuery } from "./Picker.js";

export interface PickerHandle {
	picker: PickerState<any> | undefined;
	isOpen(): boolean;
	open<T>(next: PickerState<T>): void;
	close(): void;
	/** A key while the picker is open; picking closes it first, then calls its `onPick`. */
	key(intent: Intent): void;
	/** The search field changed. */
	setQuery(query: string): void;
}

export function usePicker(): PickerHandle {
	const ref = useRef<PickerState<any> | undefined>(undefined);
	const [picker, setState] = useState<PickerState<any> | undefined>(undefined);
	const set = useCallback((next: PickerState<any> | undefined) => {
		ref.current = next;
		setState(next);
	}, []);
	const key = useCallback(
		(intent: Intent) => {
			const p = ref.current;
			if (!p) return;
			const outcome = pickerKey(p, intent);
			if (outcome.kind === "open") {
				if (outcome.state !== p) set(outcome.state);
				return;
			}
			set(undefined);
			if (outcome.kind === "picked") p.onPick(outcome.value);
			if (outcome.kind === "action") outcome.run();
		},
		[set],
	);
	const setQuery = useCallback(
		(query: string) => {
			if (ref.current) set(withQuery(ref.current, query));
		},
		[set],
	);
	return {
		picker,
		isOpen: () => ref.current !== undefined,
		open: set as PickerHandle["open"],
		close: () => set(undefined),
		key,
		setQuery,
	};
}
