// Keys → intents, before anything acts (the Codex TUI's split): the app reads raw key sequences from
// Ink's input stream, this module names them and looks them up in the key table (keybindings.ts), and
// only then does the app call the editor or session. Pure, so every key is tested without a terminal.
import { type Action, type BindingContext, DEFAULT_KEY_BINDINGS, type KeyBindings, SEQUENCE_MS } from "./keybindings.js";

/** A key press decoded from one raw input sequence. */
export interface KeyPress {
	/** "return", "escape", "up", "backspace", "char", "paste-start", ... */
	name: string;
	ctrl: boolean;
	/** Alt / Option (sent as an ESC prefix). */
	meta: boolean;
	shift: boolean;
	/** Printable text for `name === "char"` (may be many characters when a terminal sends a burst). */
	text: string;
}

/**
 * What a key means, before anything acts: an action of the key table (keybindings.ts), refined by the
 * app's state where one key does two things (Ctrl+C, Ctrl+D), or text to insert.
 */
export type Intent =
	| { type: Exclude<Action, "interrupt"> }
	/**
	 * Ctrl+C, by state: a run → `abort` (as Esc); idle with text → `clearInput` (the text is kept in the
	 * input history); idle and empty → `armQuit` (says "again to quit"), and a second press within
	 * QUIT_WINDOW_MS → `quit`.
	 */
	| { type: "clearInput" }
	| { type: "armQuit" }
	| { type: "insert"; text: string }
	| { type: "pasteStart" }
	| { type: "pasteEnd" }
	| { type: "none" };

/** What the key map needs to know about the app. */
export interface KeyContext {
	/** A run (or a `!cmd`) is active. */
	isStreaming: boolean;
	inputEmpty: boolean;
	/** Milliseconds since the last Ctrl+C, or Infinity. */
	sinceLastCtrlC: number;
	/** What has the keys: the input (default), an open picker, or an approval prompt. */
	mode?: "editor" | "picker" | "approval" | "pager";
	/** The completion popup is showing. */
	completionOpen?: boolean;
	/** The previous key press (canonical, see `keyOf`) and how long ago, for two-key sequences. */
	previous?: { key: string; ms: number };
	/** The table in use; the defaults when absent. */
	bindings?: KeyBindings;
}

/** How long after an idle Ctrl+C on an empty input a second one quits. */
export const QUIT_WINDOW_MS = 2000;

const CSI_NAMES: Record<string, string> = {
	A: "up",
	B: "down",
	C: "right",
	D: "left",
	H: "home",
	F: "end",
	"1~": "home",
	"7~": "home",
	"4~": "end",
	"8~": "end",
	"3~": "delete",
	"5~": "pageup",
	"6~": "pagedown",
	"200~": "paste-start",
	"201~": "paste-end",
};

const key = (name: string, mods: Partial<KeyPress> = {}): KeyPress => ({
	name,
	ctrl: false,
	meta: false,
	shift: false,
	text: "",
	...mods,
});

/** xterm modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4). */
function modifiers(param: number | undefined): Partial<KeyPress> {
	const m = (param ?? 1) - 1;
	return { shift: (m & 1) !== 0, meta: (m & 2) !== 0, ctrl: (m & 4) !== 0 };
}

/** Decodes one input event as Ink's input parser splits them (one key or one run of plain text). */
export function parseKeyPress(raw: string): KeyPress {
	if (raw === "\r") return key("return");
	if (raw === "\n") return key("j", { ctrl: true });
	if (raw === "\t") return key("tab");
	if (raw === "\x7f" || raw === "\b") return key("backspace");
	if (raw === "\x1b" || raw === "\x1b\x1b") return key("escape");
	if (raw === "\x1b\r" || raw === "\x1b\n") return key("return", { meta: true });
	if (raw === "\x1b\x7f" || raw === "\x1b\b") return key("backspace", { meta: true });
	if (raw.startsWith("\x1b[") || raw.startsWith("\x1bO")) return parseCsi(raw);
	if (raw.length === 2 && raw[0] === "\x1b") {
		const ch = raw[1];
		if (ch === "b" || ch === "f") return key(ch === "b" ? "wordLeft" : "wordRight", { meta: true });
		return key("char", { meta: true, text: ch });
	}
	if (raw.length === 1) {
		const code = raw.charCodeAt(0);
		if (code < 0x20) return key(String.fromCharCode(code + 0x60), { ctrl: true });
	}
	return key("char", { text: raw });
}

function parseCsi(raw: string): KeyPress {
	const body = raw.slice(2);
	if (body === "Z") return key("tab", { shift: true });
	// Kitty / fixterms `CSI code;mod u` and xterm modifyOtherKeys `CSI 27;mod;code ~`: Shift+Enter arrives this way.
	const kitty = /^(\d+)(?:;(\d+))?u$/.exec(body);
	const other = /^27;(\d+);(\d+)~$/.exec(body);
	if (kitty || other) {
		const code = Number(kitty ? kitty[1] : other![2]);
		const mods = modifiers(Number(kitty ? kitty[2] : other![1]));
		if (code === 13) return key("return", mods);
		if (code === 27) return key("escape", mods);
		if (code === 127) return key("backspace", mods);
		if (code === 9) return key("tab", mods);
		// Under the kitty protocol Ctrl+C is `CSI 99;5u`: named like the legacy control byte, so it still quits.
		if (mods.ctrl && ((code >= 97 && code <= 122) || (code >= 65 && code <= 90))) return key(String.fromCharCode(code | 0x20), mods);
		return key("char", { ...mods, text: String.fromCodePoint(code) });
	}
	// `CSI 1;5C` (Ctrl+Right) and friends: the final byte names the key, the second parameter the mods.
	const withMods = /^1;(\d+)([A-DHF])$/.exec(body);
	if (withMods) return key(CSI_NAMES[withMods[2]], modifiers(Number(withMods[1])));
	const name = CSI_NAMES[body];
	return name ? key(name) : key("unknown");
}

/** The key as the table writes it ("ctrl+c", "alt+enter", "y"), or undefined for text and markers. */
export function keyOf(k: KeyPress): string | undefined {
	let name: string;
	let shift = k.shift;
	if (k.name === "char") {
		const chars = [...k.text];
		if (chars.length !== 1) return undefined;
		const lower = chars[0].toLowerCase();
		if (lower !== chars[0]) shift = true;
		name = lower === " " ? "space" : lower;
	} else if (k.name === "wordLeft" || k.name === "wordRight") name = k.name === "wordLeft" ? "b" : "f";
	else if (k.name === "return") name = "enter";
	else if (k.name === "paste-start" || k.name === "paste-end" || k.name === "unknown") return undefined;
	else name = k.name;
	return `${k.ctrl ? "ctrl+" : ""}${k.meta ? "alt+" : ""}${shift ? "shift+" : ""}${name}`;
}

/** The binding contexts that see a key, first match wins. */
function layers(ctx: KeyContext): BindingContext[] {
	if (ctx.mode === "picker") return ["picker"];
	if (ctx.mode === "approval") return ["approval"];
	if (ctx.mode === "pager") return ["pager"];
	const run: BindingContext = ctx.isStreaming ? "busy" : "idle";
	return ctx.completionOpen ? ["completion", run, "editor"] : [run, "editor"];
}

/** The action `key` triggers in these layers, trying the two-key sequence with the previous press first. */
export function actionFor(key: string, ctx: KeyContext): Action | undefined {
	const { byContext } = ctx.bindings ?? DEFAULT_KEY_BINDINGS;
	const contexts = layers(ctx);
	const sequence = ctx.previous && ctx.previous.ms <= SEQUENCE_MS ? `${ctx.previous.key} ${key}` : undefined;
	for (const candidate of sequence ? [sequence, key] : [key]) {
		for (const context of contexts) {
			const action = byContext[context].get(candidate);
			if (action) return action;
		}
	}
	return undefined;
}

/** Maps a key press to what the user means, given the app's state. */
export function intentFor(k: KeyPress, ctx: KeyContext): Intent {
	if (k.name === "paste-start") return { type: "pasteStart" };
	if (k.name === "paste-end") return { type: "pasteEnd" };
	const key = keyOf(k);
	const action = key === undefined ? undefined : actionFor(key, ctx);
	if (action === "interrupt") {
		if (ctx.isStreaming) return { type: "abort" };
		if (!ctx.inputEmpty) return { type: "clearInput" };
		return { type: ctx.sinceLastCtrlC < QUIT_WINDOW_MS ? "quit" : "armQuit" };
	}
	// Ctrl+D quits only when nothing runs and nothing is typed; otherwise it deletes forward (or nothing).
	if (action === "quit") return { type: ctx.inputEmpty && !ctx.isStreaming ? "quit" : "delete" };
	// Esc Esc rewinds from an empty input only: with text typed it would take the user away from it.
	if (action === "rewind" && !ctx.inputEmpty) return { type: "none" };
	if (action) return { type: action };
	// Text goes into the input (a picker's search field takes it itself); unbound control keys do nothing.
	if (ctx.mode === undefined || ctx.mode === "editor") {
		if (k.name === "char" && !k.ctrl && !k.meta) return { type: "insert", text: k.text };
	}
	return { type: "none" };
}
