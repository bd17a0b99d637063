// Turns raw key sequences into actions: bracketed paste is collected whole (a newline inside a paste
// never submits), every other key goes through the key map, and the intent acts on the editor or the
// session. The only component-side logic between the user and `AgentSessionApi`. The hook holds the
// state between keys; the functions below it each take one step (split a chunk, route a key, act).
import { useRef } from "react";
import type { AgentSessionApi } from "../../session/types.js";
import { EDITOR_ACTIONS } from "../input/editor-actions.js";
import * as edit from "../input/editor-state.js";
import type { EditorOutcome } from "../input/external-editor.js";
import type { InputHistory } from "../input/input-history.js";
import type { CompletionMenuHandle } from "../input/use-completion-menu.js";
import { menuInputKey } from "../input/use-completion-menu.js";
import type { EditorHandle } from "../input/use-editor.js";
import { keyLabel } from "../keys/key-hints.js";
import { type Intent, intentFor, type KeyPress, keyOf, parseKeyPress, QUIT_WINDOW_MS } from "../keys/key-map.js";
import { type Action, DEFAULT_KEY_BINDINGS, type KeyBindings } from "../keys/keybindings.js";
import { useFieldPrompt } from "../overlays/FieldPrompt.js";
import { memoryLine } from "../overlays/memory-picker.js";
import { openTranscriptPager, refreshTranscriptPager } from "../overlays/transcript-pager.js";
import { openMemoryPicker, openResumePicker, openRewindMenu, openUiRequest, type UiRequestHost } from "../overlays/ui-requests.js";
import { type TranscriptPagerHandle, useTranscriptPager } from "../overlays/use-transcript-pager.js";
import type { SessionView } from "../transcript/session-view.js";
import { nextSelection, steeredAgent } from "../transcript/sub-agent-lines.js";
import { usePicker } from "../widgets/use-picker.js";
import type { ApprovalPromptHandle } from "./use-approval-prompt.js";
import type { ElicitationFormHandle } from "./use-elicitation-form.js";

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
	/** Ctrl+G: `text` edited in $VISUAL / $EDITOR (external-editor.ts), or why not. */
	editExternally: (text: string) => EditorOutcome;
	/** `/help`: the app shows the commands and keys (and the welcome panel again). */
	showHelp: () => void;
	/** Shows a status line for `ms` (not a history line): the "again to quit" hint. */
	flash: (text: string, ms: number) => void;
	/** The key table in use (defaults plus keybindings.json); the defaults when absent. */
	bindings?: KeyBindings;
	/**
	 * The open approval prompt: keys while an approval waits go here; "stop" (Esc) denies and stops the
	 * run like Esc does; typed text comes back and the input keeps it. Bursts (a paste, fast typing)
	 * never reach the choices unless a denial's reason is being typed.
	 */
	approval?: Pick<ApprovalPromptHandle, "key" | "typingReason">;
	/** The open MCP question's form: while one waits it takes every key (Enter submits, Esc declines). */
	elicitation?: Pick<ElicitationFormHandle, "key">;
	/** The sub-agent transcript pager's room: lines on a page and the width they wrap at. */
	pagerSize: () => { page: number; columns: number };
	now?: () => number;
}

/** What lives between keys: a paste being collected, the last Ctrl+C, the last key, the history position. */
interface KeyMemory {
	paste: string | undefined;
	lastCtrlC: number;
	/** The last key and when, for two-key sequences (Esc Esc). */
	previous: { key: string; at: number } | undefined;
	/** Position in input history while browsing with Up/Down; `draft` is what was typed before. */
	browsing: { index: number; draft: string } | undefined;
}

/** One render's view of the controller: the app's parts, the memory, and the pickers. */
interface Controller extends UiRequestHost {
	deps: InputControllerDeps;
	memory: KeyMemory;
	now: () => number;
	transcripts: TranscriptPagerHandle;
}

export function useInputController(deps: InputControllerDeps) {
	const memory = useRef<KeyMemory>({ paste: undefined, lastCtrlC: Number.NEGATIVE_INFINITY, previous: undefined, browsing: undefined });
	const pickers = usePicker();
	const fields = useFieldPrompt();
	const transcripts = useTranscriptPager();
	const notify = (level: "info" | "error", text: string) => {
		deps.view.add({ kind: "notice", level, text });
		deps.refresh();
	};
	const c: Controller = {
		deps,
		memory: memory.current,
		now: deps.now ?? Date.now,
		session: deps.session,
		editor: deps.editor,
		pickers,
		fields,
		transcripts,
		showHelp: deps.showHelp,
		refresh: deps.refresh,
		notify,
		fail: (error) => notify("error", error instanceof Error ? error.message : String(error)),
	};
	return {
		onRaw: (raw: string) => onRaw(c, raw),
		picker: pickers.picker,
		setPickerQuery: pickers.setQuery,
		field: fields.field,
		setFieldValue: fields.setValue,
		refuseFieldPaste: fields.refuse,
		transcriptPager: transcripts.pager,
		refreshTranscriptPager: () => refreshSubAgentTranscript(c),
		openResumePicker: () => openResumePicker(c),
	};
}

/** One raw sequence from the terminal: part of a paste, a chunk of several keys, or one key. */
function onRaw(c: Controller, raw: string) {
	const { memory } = c;
	if (memory.paste !== undefined) {
		if (raw !== PASTE_END) memory.paste += raw;
		else {
			const pasted = memory.paste;
			memory.paste = undefined;
			// At an approval a paste is never an answer: the reason field or the input takes it whole.
			if (approvalOpen(c)) approvalKey(c, { name: "char", text: pasted, ctrl: false, meta: false, shift: false });
			// At an MCP form the paste is the focused field's text (one line: the form drops controls).
			else if (c.deps.session.getState().pendingElicitation && c.deps.elicitation)
				c.deps.elicitation.key({ name: "char", text: pasted, ctrl: false, meta: false, shift: false });
			// With a picker or a field open, its own field took the pasted text (a key must not land in the input).
			else if (!overlayOpen(c)) c.editor.apply((s) => edit.insertPaste(s, pasted));
		}
		return;
	}
	// Keys typed faster than we read arrive as one chunk ("hello\r", "\x03\x03"), and Ink passes a run
	// without ESC on as one event. Pastes come bracketed (we switch bracketed paste on), so a control
	// character in an unbracketed chunk is a key of its own: CR is Enter, as in a terminal's line editor.
	if (raw.length > 1 && raw[0] !== "\x1b" && CONTROL_KEY.test(raw)) {
		// At an approval's choices a chunk with words in it is typing, not an answer: its Enter must not take
		// a choice. One key and Enter read together ("3\r" on a busy machine) are still two keys.
		const text = raw.replace(/[\x00-\x1f\x7f]+/g, " ").trim();
		if (approvalOpen(c) && !c.deps.approval?.typingReason() && [...text].length > 1) {
			if (text) approvalKey(c, { name: "char", text, ctrl: false, meta: false, shift: false });
			return;
		}
		for (const part of raw.split(CONTROL_KEYS)) if (part) onRaw(c, part);
		return;
	}
	onKey(c, parseKeyPress(raw));
}

/** One decoded key: to the approval prompt while one waits, else through the key map to whatever is open. */
function onKey(c: Controller, key: KeyPress) {
	const { session, view, editor, menu, bindings } = c.deps;
	const at = c.now();
	const last = c.memory.previous;
	const named = keyOf(key);
	c.memory.previous = named === undefined ? undefined : { key: named, at };
	// A paste is collected whole before anything sees it (at an approval, too: it must not answer).
	if (key.name === "paste-start") {
		c.memory.paste = "";
		return;
	}
	if (approvalOpen(c)) return approvalKey(c, key);
	if (session.getState().pendingElicitation && c.deps.elicitation?.key(key)) return;
	if (c.transcripts.isOpen()) return transcriptKey(c, key);
	if (session.getState().pendingPlan && planKey(c, key)) return;
	const intent = intentFor(key, {
		// A running `!cmd` is stopped by Esc like a reply.
		isStreaming: session.getState().isStreaming || view.shells.size > 0,
		inputEmpty: editor.current().text === "",
		sinceLastCtrlC: at - c.memory.lastCtrlC,
		mode: overlayOpen(c) ? "picker" : "editor",
		completionOpen: menu.isOpen(),
		previous: last && { key: last.key, ms: at - last.at },
		bindings,
	});
	if (c.fields.isOpen()) c.fields.key(intent);
	else if (c.pickers.isOpen()) c.pickers.key(intent);
	else if (!completionTakes(c, intent)) act(c, intent);
}

/** A picker or a field prompt has the keys (Esc closes it before anything else). */
const overlayOpen = (c: Controller) => c.fields.isOpen() || c.pickers.isOpen();

const approvalOpen = (c: Controller) => c.deps.approval !== undefined && c.deps.session.getState().pendingApproval !== undefined;

/** A key while an approval waits: the prompt decides; Esc stops the run; text it hands back waits in the input. */
function approvalKey(c: Controller, key: KeyPress) {
	const { session, approval } = c.deps;
	if (key.name === "tab" && key.shift) session.cyclePermissionMode();
	else {
		const result = approval?.key(key);
		if (result?.type === "stop") abort(c);
		if (result?.type === "text") {
			const { text } = result;
			c.editor.apply((s) => (text.includes("\n") ? edit.insertPaste(s, text) : edit.insertText(s, text)));
		}
	}
	c.deps.refresh();
}

/** A key while a sub-agent's transcript is shown: the pager's keys scroll or close it; others do nothing. */
function transcriptKey(c: Controller, key: KeyPress) {
	const { bindings, pagerSize } = c.deps;
	const action = intentFor(key, { isStreaming: true, inputEmpty: true, sinceLastCtrlC: Infinity, mode: "pager", bindings }).type;
	c.transcripts.key(action as Action, pagerSize().page);
}

/**
 * Ctrl+O on a sub-agent: the selected one while sub-agents run, else the last one running; with none
 * running, the one started last when the latest tool call shown is a `task` call. False when there is
 * no sub-agent to show (Ctrl+O then prints the last output in full, as before).
 */
function openSubAgentTranscript(c: Controller): boolean {
	const { session, view, pagerSize } = c.deps;
	const agents = session.getState().subagents ?? [];
	const running = agents.filter((a) => a.status === "running" || a.status === "queued");
	const lastTool = view.history.findLast((item) => item.kind === "tool");
	const id = steeredAgent(agents, view.selectedAgent) ?? running.at(-1)?.agentId;
	if (id === undefined && (lastTool?.kind !== "tool" || lastTool.name !== "task")) return false;
	const transcript = session.subAgentTranscript(id);
	if (!transcript) return false;
	const { page, columns } = pagerSize();
	c.transcripts.open(openTranscriptPager(transcript, columns, page));
	return true;
}

/** The open sub-agent pager drawn again from its transcript (called when the sub-agents' state changes). */
function refreshSubAgentTranscript(c: Controller): void {
	const { session, pagerSize } = c.deps;
	c.transcripts.update((current) => {
		const transcript = session.subAgentTranscript(current.agentId);
		if (!transcript) return current;
		const { page, columns } = pagerSize();
		return refreshTranscriptPager(current, transcript, columns, page);
	});
}

/**
 * A key while a plan waits for approval: 1 or 2 on an empty input approve it (auto-edit, or keep
 * asking); Enter sends what is typed as feedback (keep planning). Other keys edit the input as usual,
 * and Esc stops the run. True when the key answered the plan.
 */
function planKey(c: Controller, key: KeyPress): boolean {
	const { session, editor } = c.deps;
	const plan = session.getState().pendingPlan;
	if (!plan) return false;
	const empty = editor.current().text === "";
	if (empty && key.name === "char" && !key.ctrl && !key.meta && (key.text === "1" || key.text === "2")) {
		session.respondToPlan(plan.id, { decision: "approve", mode: key.text === "1" ? "auto-edit" : "ask" });
	} else if (key.name === "enter" && !key.meta && !key.shift && !key.ctrl) {
		const feedback = edit.expandPastes(editor.current()).trim();
		editor.set(edit.emptyEditor());
		session.respondToPlan(plan.id, { decision: "revise", ...(feedback ? { feedback } : {}) });
	} else return false;
	c.deps.refresh();
	return true;
}

/** Offers the key to the open completion menu; true when it took it (and accepted, maybe sent). */
function completionTakes(c: Controller, intent: Intent): boolean {
	const fromMenu = c.deps.menu.key(intent);
	if (fromMenu === undefined) return false;
	if (fromMenu === "handled") return true;
	const { editor } = c;
	const { text, cursor } = fromMenu.completion;
	if (!fromMenu.submit) editor.set({ ...editor.current(), text, cursor });
	else {
		editor.set({ ...editor.current(), text: text.trimEnd(), cursor: text.trimEnd().length });
		send(c);
	}
	return true;
}

/** What an intent does in the input: an edit from the table, or one of the app's own actions. */
function act(c: Controller, intent: Intent) {
	const editAction = EDITOR_ACTIONS[intent.type];
	if (editAction) return c.editor.apply(editAction);
	const { session, deps } = c;
	switch (intent.type) {
		case "submit":
			return send(c);
		case "followUp":
			return send(c, "followUp");
		case "abort":
			return abort(c);
		case "rewind":
			return openRewindMenu(c);
		case "insert":
			c.memory.browsing = undefined;
			return c.editor.apply((s) => edit.insertText(s, intent.text));
		case "historyUp":
			return browseHistory(c, -1);
		case "historyDown":
			return browseHistory(c, 1);
		case "cycleMode":
			session.cyclePermissionMode();
			return deps.refresh();
		case "background":
			session.moveToBackground();
			return deps.refresh();
		case "selectAgent": {
			const agents = session.getState().subagents ?? [];
			deps.view.selectedAgent = nextSelection(agents, steeredAgent(agents, deps.view.selectedAgent));
			return deps.refresh();
		}
		case "clearInput":
			return clearInput(c);
		case "armQuit":
			c.memory.lastCtrlC = c.now();
			return deps.flash(`Press ${keyLabel(deps.bindings ?? DEFAULT_KEY_BINDINGS, "interrupt") ?? "Ctrl+C"} again to quit`, QUIT_WINDOW_MS);
		case "quit":
			return deps.exit(0);
		case "redraw":
			return deps.redraw();
		case "externalEditor":
			return externalEdit(c);
		case "toggleToolOutput":
			if (openSubAgentTranscript(c)) return;
			if (deps.view.expandLast()) deps.refresh();
			return;
	}
	// "complete" (Tab with no menu open) and keys bound to nothing here do nothing.
}

/** Sends the input: a prompt, a steer or (as "followUp") a queued message; a command may ask for the UI. */
function send(c: Controller, as?: "followUp"): void {
	const { editor, session } = c;
	const { history, view } = c.deps;
	const state = editor.current();
	const text = edit.expandPastes(state);
	if (!text.trim()) return;
	const command = text.trim();
	editor.set(edit.emptyEditor());
	c.memory.browsing = undefined;
	history.add(state.text.includes("[paste #") ? text : state.text);
	if (state.pastes.size > 0 && !/^[/!]/.test(command)) view.showPastesAs(text.trim(), state.text.trim());
	// `#text` adds a line to an AGENTS.md, asking which; it is not a prompt.
	const memory = as === undefined ? memoryLine(text) : undefined;
	if (memory !== undefined) {
		openMemoryPicker(c, memory);
		return;
	}
	// A selected running sub-agent takes what is typed (commands and !shell still go to the session).
	const agent = steeredAgent(session.getState().subagents, view.selectedAgent);
	if (agent && session.getState().isStreaming && !/^[/!]/.test(command)) {
		try {
			if (as === "followUp") session.followUpAgent(agent, text);
			else session.steerAgent(agent, text);
			view.add({ kind: "notice", level: "info", text: `${as === "followUp" ? "Queued for" : "Steering"} sub-agent ${agent}: ${command}` });
			c.deps.refresh();
		} catch (error) {
			c.fail(error);
		}
		return;
	}
	// Every command, /quit and the pickers' included, goes to the session's registry; one that needs
	// the UI answers with what to show.
	session
		.submit(text, as ? { as, ui: true } : { ui: true })
		.then((outcome) => {
			if (outcome.kind === "command" && outcome.ui) openUiRequest(c, outcome.ui);
		})
		.catch(c.fail);
}

/** Stops the run; queued messages come back to the input, before what is typed there. */
function abort({ session, editor }: Controller) {
	session.abort();
	const queued = session.takeQueuedMessages();
	const restored = [...queued.steering, ...queued.followUp];
	if (!restored.length) return;
	const typed = editor.current().text;
	editor.set(edit.emptyEditor([...restored, typed].filter(Boolean).join("\n")));
}

/** Ctrl+G: the whole input (pastes expanded) to the editor and back; the screen is drawn again after it. */
function externalEdit(c: Controller) {
	const outcome = c.deps.editExternally(edit.expandPastes(c.editor.current()));
	if ("error" in outcome) return c.notify("error", outcome.error);
	c.memory.browsing = undefined;
	c.editor.set(edit.emptyEditor(outcome.text));
	c.deps.redraw();
}

/** Ctrl+C on a typed input: cleared, not lost (Up brings it back). */
function clearInput(c: Controller) {
	const typed = c.editor.current().text;
	if (typed.trim()) c.deps.history.add(typed);
	c.memory.browsing = undefined;
	c.editor.set(edit.emptyEditor());
}

/** Up/Down: a line within the input, or past its edge the previous/next input of the history. */
function browseHistory(c: Controller, direction: -1 | 1) {
	const { editor, memory } = c;
	const moved = edit.moveLine(editor.current(), direction);
	if (moved) return editor.set(moved);
	const entries = c.deps.history.entries;
	const at = memory.browsing ?? { index: entries.length, draft: editor.current().text };
	const index = Math.min(entries.length, Math.max(0, at.index + direction));
	if (index === at.index) return;
	memory.browsing = { index, draft: at.draft };
	const recalled = edit.emptyEditor(index === entries.length ? at.draft : entries[index]);
	// A recalled `/command` must not open completion: its menu would take the next Up.
	c.deps.menu.closeFor(menuInputKey(recalled));
	editor.set(recalled);
}
