// Keys → intents, before anything acts (the Codex TUI's split): the app reads raw key sequences from
// Ink's input stream, this module names them, and only then does the app call the editor or session.
// Pure, so the whole key table is tested without a terminal.

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

export type Intent =
	/** Enter while idle: the session prompts. */
	| { type: "submit" }
	/** Enter while the agent works: the text steers the current run. */
	| { type: "steer" }
	/** Alt+Enter: queue after the run (prompts when idle). */
	| { type: "followUp" }
	/** Esc while the agent works. */
	| { type: "abort" }
	| { type: "newline" }
	| { type: "historyUp" }
	| { type: "historyDown" }
	| { type: "left" }
	| { type: "right" }
	| { type: "wordLeft" }
	| { type: "wordRight" }
	| { type: "home" }
	| { type: "end" }
	| { type: "backspace" }
	| { type: "delete" }
	| { type: "deleteWordBack" }
	| { type: "deleteToLineStart" }
	/** Ctrl+C: clears the input; the second within a second quits. */
	| { type: "clearInput" }
	| { type: "quit" }
	| { type: "redraw" }
	| { type: "toggleToolOutput" }
	| { type: "complete" }
	| { type: "dismiss" }
	| { type: "insert"; text: string }
	| { type: "pasteStart" }
	| { type: "pasteEnd" }
	| { type: "none" };

/** What the key map needs to know about the app. */
export interface KeyContext {
	isStreaming: boolean;
	inputEmpty: boolean;
	/** Milliseconds since the last Ctrl+C, or Infinity. */
	sinceLastCtrlC: number;
}

export const DOUBLE_CTRL_C_MS = 1000;

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
	// Kitty / fixterms `CSI code;mod u` and xterm modifyOtherKeys `CSI 27;mod;code ~`: Shift+Enter arrives this way.
	const kitty = /^(\d+)(?:;(\d+))?u$/.exec(body);
	const other = /^27;(\d+);(\d+)~$/.exec(body);
	if (kitty || other) {
		const code = Number(kitty ? kitty[1] : other![2]);
		const mods = modifiers(Number(kitty ? kitty[2] : other![1]));
		if (code === 13) return key("return", mods);
		if (code === 27) return key("escape", mods);
		if (code === 127) return key("backspace", mods);
		return key("char", { ...mods, text: String.fromCodePoint(code) });
	}
	// `CSI 1;5C` (Ctrl+Right) and friends: the final byte names the key, the second parameter the mods.
	const withMods = /^1;(\d+)([A-DHF])$/.exec(body);
	if (withMods) return key(CSI_NAMES[withMods[2]], modifiers(Number(withMods[1])));
	const name = CSI_NAMES[body];
	return name ? key(name) : key("unknown");
}

/** Maps a key press to what the user means, given the app's state. */
export function intentFor(k: KeyPress, ctx: KeyContext): Intent {
	switch (k.name) {
		case "paste-start":
			return { type: "pasteStart" };
		case "paste-end":
			return { type: "pasteEnd" };
		case "return":
			if (k.meta) return { type: "followUp" };
			if (k.shift || k.ctrl) return { type: "newline" };
			return { type: ctx.isStreaming ? "steer" : "submit" };
		case "escape":
			return ctx.isStreaming ? { type: "abort" } : { type: "dismiss" };
		case "up":
			return { type: "historyUp" };
		case "down":
			return { type: "historyDown" };
		case "left":
			return { type: k.ctrl || k.meta ? "wordLeft" : "left" };
		case "right":
			return { type: k.ctrl || k.meta ? "wordRight" : "right" };
		case "wordLeft":
			return { type: "wordLeft" };
		case "wordRight":
			return { type: "wordRight" };
		case "home":
			return { type: "home" };
		case "end":
			return { type: "end" };
		case "backspace":
			return { type: k.meta || k.ctrl ? "deleteWordBack" : "backspace" };
		case "delete":
			return { type: "delete" };
		case "tab":
			return { type: "complete" };
		case "char":
			if (k.meta) return { type: "none" };
			return { type: "insert", text: k.text };
		case "unknown":
			return { type: "none" };
	}
	if (!k.ctrl) return { type: "none" };
	switch (k.name) {
		case "c":
			if (ctx.sinceLastCtrlC < DOUBLE_CTRL_C_MS) return { type: "quit" };
			return { type: "clearInput" };
		case "d":
			return ctx.inputEmpty ? { type: "quit" } : { type: "delete" };
		case "j":
			return { type: "newline" };
		case "l":
			return { type: "redraw" };
		case "o":
			return { type: "toggleToolOutput" };
		case "w":
			return { type: "deleteWordBack" };
		case "u":
			return { type: "deleteToLineStart" };
		case "a":
			return { type: "home" };
		case "e":
			return { type: "end" };
		case "b":
			return { type: "left" };
		case "f":
			return { type: "right" };
		case "p":
			return { type: "historyUp" };
		case "n":
			return { type: "historyDown" };
	}
	return { type: "none" };
}
