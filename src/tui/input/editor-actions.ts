// The key table's editing actions as data: intent → the pure edit of editor-state.ts it applies. The
// input controller looks an intent up here first; what is not an edit of the input (send, stop, quit,
// pickers) it handles itself.

import type { Intent } from "../keys/key-map.js";
import type { EditorState } from "./editor-state.js";
import * as edit from "./editor-state.js";

type Edit = (s: EditorState) => EditorState;

export const EDITOR_ACTIONS: Partial<Record<Intent["type"], Edit>> = {
	newline: (s) => edit.insertText(s, "\n"),
	left: edit.moveLeft,
	right: edit.moveRight,
	wordLeft: edit.moveWordLeft,
	wordRight: edit.moveWordRight,
	home: edit.moveHome,
	end: edit.moveEnd,
	backspace: edit.backspace,
	delete: edit.deleteForward,
	deleteWordBack: edit.deleteWordBack,
	deleteToLineStart: edit.deleteToLineStart,
};
