// Turns raw key sequences into actions: bracketed paste is collected whole (a newline inside a paste
// never submits), every other key goes through the key map, and the intent acts on the editor or the
// session. The only component-side logic between the user and `AgentSessionApi`.
import { useRef } from "react";
import type { AgentSessionApi, RewindPointInfo } from "../src/session/types.js";
import * as edit from "./editor-state.js";
import type { InputHistory } from "./input-history.js";
import { keyLabel } from "./key-hints.js";
import { type Intent, intentFor, type KeyPress, keyOf, parseKeyPress } from "./key-map.js";
import { DEFAULT_KEY_BINDINGS, type KeyBindings } from "./keybindings.js";
import { confirmRestorePicker, type RestoreChoice, restoreChoicePicker, rewindPointsPicker } from "./rewind-menu.js";
import { resumePicker } from "./session-picker.js";
import type { SessionView } from "./session-view.js";
import type { CompletionMenuHandle } from "./use-completion-menu.js";
import { menuInputKey } from "./use-completion-menu.js";
import type { EditorHandle } from "./use-editor.js";
import { usePicker } from "./use-picker.js";

const PASTE_END = "\x1b[201~";
const CONTROL_KEY = /[\x00-\x1f\x7f]/;
const CONTROL_KEYS = /([\x00-\x1f\x7f])/;

export interface InputControllerDeps {
	session: AgentSessionApi;
	view: SessionView;
	editor: EditorHandle;
	history: InputHistory;
	/** The completion menu: while it shows matches it takes Up/Down, Tab, Enter and Esc. */
	menu: Pick<CompletionMenuHandle, "key" | "isOpen" | "closeFor">;
	exit: (code: number) => void;
	redraw: () => void;
	/** Re-render now (for changes the session does not report, like a printed notice). */
	refresh: () => void;
	/** The key table in use (defaults plus keybindings.json); the defaults when absent. */
	bindings?: KeyBindings;
	/** Keys while an approval waits go here; "stop" (Esc) denies and stops the run like Esc does. */
	approvalKey?: (key: KeyPress, action: string) => "stop" | undefined;
	now?: () => number;
}

export function useInputController(deps: InputControllerDeps) {
	const paste = useRef<string | undefined>(undefined);
	const lastCtrlC = useRef(Number.NEGATIVE_INFINITY);
	/** The last key and when, for two-key sequences (Esc Esc). */
	const previous = useRef<{ key: string; at: number } | undefined>(undefined);
	/** Position in input history while browsing with Up/Down; `draft` is what was typed before. */
	const browsing = useRef<{ index: number; draft: string } | undefined>(undefined);
	const pickers = usePicker();

	const { session, view, editor, history } = deps;
	const now = deps.now ?? Date.now;

	const notify = (level: "info" | "error", text: string) => {
		view.add({ kind: "notice", level, text });
		deps.refresh();
	};

	const send = (as?: "followUp") => {
		const state = editor.current();
		const text = edit.expandPastes(state);
		if (!text.trim()) return;
		const command = text.trim();
		editor.set(edit.emptyEditor());
		browsing.current = undefined;
		history.add(state.text.includes("[paste #") ? text : state.text);
		if (state.pastes.size > 0 && !/^[/!]/.test(command)) view.showPastesAs(text.trim(), state.text.trim());
		// Every command, /quit and the pickers' included, goes to the session's registry; one that needs
		// the UI answers with what to show.
		session
			.submit(text, as ? { as, ui: true } : { ui: true })
			.then((outcome) => {
				if (outcome.kind !== "command" || !outcome.ui) return;
				if (outcome.ui === "pick-model") openModelPicker();
				else if (outcome.ui === "pick-session") openResumePicker();
				else if (outcome.ui === "rewind-menu") openRewindMenu();
			})
			.catch(fail);
	};

	const fail = (error: unknown) => notify("error", error instanceof Error ? error.message : String(error));

	const openModelPicker = () => {
		const models = session.availableModels();
		const { model } = session.getState();
		const isCurrent = (m: (typeof models)[number]) => m.provider === model.provider && m.id === model.id;
		pickers.open({
			title: "Pick a model",
			items: models.map((m) => ({ label: `${m.provider}/${m.id}`, detail: m.name, active: isCurrent(m) })),
			values: models,
			index: Math.max(0, models.findIndex(isCurrent)),
			onPick: (m: (typeof models)[number]) => session.setModel(m).catch(fail),
		});
	};

	// Called on the session (not passed as a bare function): AgentSession's method reads `this`.
	const openResumePicker = () => {
		const sessions = session.listSessions?.() ?? [];
		if (!sessions.length) return notify("info", "No saved sessions in this folder yet");
		// The session's own command does the resuming (and reports the outcome).
		pickers.open(resumePicker(sessions, (id) => void session.submit(`/resume ${id}`).catch(fail)));
	};

	// /rewind and Esc twice: prompt → what to restore → (for code) confirm. See rewind-menu.ts.
	const openRewindMenu = () => {
		if (session.getState().isStreaming) return notify("info", "Rewind works when the agent is idle: press Esc to stop the run first");
		void (async () => {
			const points = (await session.rewindPoints?.()) ?? [];
			if (!points.length) return notify("info", "No prompts to go back to in this session yet");
			pickers.open(
				rewindPointsPicker(points, (point) =>
					pickers.open(restoreChoicePicker(point, (choice) => void restore(point, choice).catch(fail))),
				),
			);
			deps.refresh();
		})().catch(fail);
	};

	const restore = async (point: RewindPointInfo, choice: RestoreChoice) => {
		if (choice === "cancel") return;
		const run = async () => {
			const result = await session.rewindTo?.(point.entryId, choice);
			const files = result?.files.length ? ` (${result.files.length} file${result.files.length === 1 ? "" : "s"})` : "";
			notify("info", `${choice === "both" ? "Code and conversation" : choice === "code" ? "Code" : "Conversation"} restored${files}`);
			// The prompt comes back to the input, ready to edit and send again.
			if (result?.text !== undefined && editor.current().text === "") editor.set(edit.emptyEditor(result.text));
		};
		if (choice === "conversation") return run().catch(fail);
		const preview = await session.previewRewind?.(point.entryId);
		if (!preview || preview.changes.length === 0) return run().catch(fail);
		pickers.open(confirmRestorePicker(preview, (yes) => void (yes ? run().catch(fail) : undefined)));
		deps.refresh();
	};

	const abort = () => {
		session.abort();
		const queued = session.takeQueuedMessages();
		const restored = [...queued.steering, ...queued.followUp];
		if (!restored.length) return;
		const typed = editor.current().text;
		editor.set(edit.emptyEditor([...restored, typed].filter(Boolean).join("\n")));
	};

	const browseHistory = (direction: -1 | 1) => {
		const moved = edit.moveLine(editor.current(), direction);
		if (moved) return editor.set(moved);
		const entries = history.entries;
		const at = browsing.current ?? { index: entries.length, draft: editor.current().text };
		const index = Math.min(entries.length, Math.max(0, at.index + direction));
		if (index === at.index) return;
		browsing.current = { index, draft: at.draft };
		const recalled = edit.emptyEditor(index === entries.length ? at.draft : entries[index]);
		// A recalled `/command` must not open completion: its menu would take the next Up.
		deps.menu.closeFor(menuInputKey(recalled));
		editor.set(recalled);
	};

	const act = (intent: Intent) => {
		switch (intent.type) {
			case "submit":
				return send();
			case "followUp":
				return send("followUp");
			case "abort":
				return abort();
			case "rewind":
				return openRewindMenu();
			case "newline":
				return editor.apply((s) => edit.insertText(s, "\n"));
			case "insert":
				browsing.current = undefined;
				return editor.apply((s) => edit.insertText(s, intent.text));
			case "historyUp":
				return browseHistory(-1);
			case "historyDown":
				return browseHistory(1);
			case "left":
				return editor.apply(edit.moveLeft);
			case "right":
				return editor.apply(edit.moveRight);
			case "wordLeft":
				return editor.apply(edit.moveWordLeft);
			case "wordRight":
				return editor.apply(edit.moveWordRight);
			case "home":
				return editor.apply(edit.moveHome);
			case "end":
				return editor.apply(edit.moveEnd);
			case "backspace":
				return editor.apply(edit.backspace);
			case "delete":
				return editor.apply(edit.deleteForward);
			case "deleteWordBack":
				return editor.apply(edit.deleteWordBack);
			case "deleteToLineStart":
				return editor.apply(edit.deleteToLineStart);
			case "cycleMode":
				session.cyclePermissionMode?.();
				return deps.refresh();
			case "clearInput": {
				// Cleared, not lost: Up brings it back.
				const typed = editor.current().text;
				if (typed.trim()) history.add(typed);
				browsing.current = undefined;
				return editor.set(edit.emptyEditor());
			}
			case "armQuit":
				lastCtrlC.current = now();
				return notify("info", `Press ${keyLabel(deps.bindings ?? DEFAULT_KEY_BINDINGS, "interrupt") ?? "Ctrl+C"} again to quit`);
			case "quit":
				return deps.exit(0);
			case "redraw":
				return deps.redraw();
			case "toggleToolOutput":
				if (view.expandLast()) deps.refresh();
				return;
			case "complete":
				// Tab with no menu open: nothing to complete.
				return;
		}
	};

	const onRaw = (raw: string) => {
		if (paste.current !== undefined) {
			if (raw === PASTE_END) {
				const pasted = paste.current;
				paste.current = undefined;
				editor.apply((s) => edit.insertPaste(s, pasted));
			} else paste.current += raw;
			return;
		}
		// Keys typed faster than we read arrive as one chunk ("hello\r", "\x03\x03"), and Ink passes a run
		// without ESC on as one event. Pastes come bracketed (we switch bracketed paste on), so a control
		// character in an unbracketed chunk is a key of its own: CR is Enter, as in a terminal's line editor.
		if (raw.length > 1 && raw[0] !== "\x1b" && CONTROL_KEY.test(raw)) {
			for (const part of raw.split(CONTROL_KEYS)) if (part) onRaw(part);
			return;
		}
		const key = parseKeyPress(raw);
		const at = now();
		const last = previous.current;
		const named = keyOf(key);
		previous.current = named === undefined ? undefined : { key: named, at };
		if (session.getState().pendingApproval && deps.approvalKey) {
			// The approval context of the key table; typed reason text goes to the prompt as is.
			const action = intentFor(key, {
				isStreaming: true,
				inputEmpty: true,
				sinceLastCtrlC: Infinity,
				mode: "approval",
				bindings: deps.bindings,
			}).type;
			if (key.name === "tab" && key.shift) session.cyclePermissionMode?.();
			else if (deps.approvalKey(key, action) === "stop") abort();
			return deps.refresh();
		}
		const intent = intentFor(key, {
			// A running `!cmd` is stopped by Esc like a reply.
			isStreaming: session.getState().isStreaming || view.shells.size > 0,
			inputEmpty: editor.current().text === "",
			sinceLastCtrlC: at - lastCtrlC.current,
			mode: pickers.isOpen() ? "picker" : "editor",
			completionOpen: deps.menu.isOpen(),
			previous: last && { key: last.key, ms: at - last.at },
			bindings: deps.bindings,
		});
		if (intent.type === "pasteStart") {
			paste.current = "";
			return;
		}
		if (pickers.isOpen()) return pickers.key(intent);
		const fromMenu = deps.menu.key(intent);
		if (fromMenu === "handled") return;
		if (fromMenu) {
			const { text, cursor } = fromMenu.completion;
			if (!fromMenu.submit) return editor.set({ ...editor.current(), text, cursor });
			editor.set({ ...editor.current(), text: text.trimEnd(), cursor: text.trimEnd().length });
			return send();
		}
		act(intent);
	};

	return { onRaw, picker: pickers.picker, setPickerQuery: pickers.setQuery, openResumePicker };
}
