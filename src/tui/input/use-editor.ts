// Holds the input's EditorState. A ref mirrors the state so that several key events arriving in one
// stdin chunk each see the result of the one before (React state would still hold the old value).
import { useCallback, useRef, useState } from "react";
import { type EditorState, emptyEditor } from "./editor-state.js";

export interface EditorHandle {
	state: EditorState;
	/** The latest state, also between renders. */
	current(): EditorState;
	apply(edit: (s: EditorState) => EditorState): void;
	set(next: EditorState): void;
}

export function useEditor(initial = ""): EditorHandle {
	const ref = useRef<EditorState>(emptyEditor(initial));
	const [state, setState] = useState(ref.current);
	const set = useCallback((next: EditorState) => {
		ref.current = next;
		setState(next);
	}, []);
	const apply = useCallback((edit: (s: EditorState) => EditorState) => set(edit(ref.current)), [set]);
	const current = useCallback(() => ref.current, []);
	return { state, current, apply, set };
}
