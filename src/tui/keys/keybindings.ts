// The key table: every action the app's keys can trigger, the context it belongs to, and its default
// keys. Data, not code: the key map (key-map.ts) resolves presses through it, every key hint on screen
// is generated from it (key-hints.ts), and ~/.config/rudder/keybindings.json overrides it
// (keybindings-file.ts). Pure: no terminal, no files.
import { closestName } from "../../config/problems.js";

/**
 * Where a binding applies. `editor` is the input, idle or busy; `idle` and `busy` add to it while no
 * run is / a run is active. `completion` is the popup above the input (it goes first while open).
 * `picker`, `approval` and `pager` (an approval's whole text) are modal: while one is open only its own keys count.
 */
export type BindingContext = "editor" | "idle" | "busy" | "completion" | "picker" | "approval" | "pager";

export interface ActionSpec {
	context: BindingContext;
	/** Default keys, e.g. "ctrl+c", "alt+enter", "shift+tab", "escape escape" (pressed twice). */
	keys: readonly string[];
	/** What the action does, for /help and errors. */
	description: string;
}

/** The actions and their defaults. Names are what keybindings.json uses. */
export const ACTIONS = {
	// The input, idle or busy. The session decides what Enter does (prompt when idle, steer when busy).
	submit: { context: "editor", keys: ["enter"], description: "Send: prompts when idle, steers the run while the agent works" },
	followUp: { context: "editor", keys: ["alt+enter"], description: "Queue the input as a follow-up for when the run ends" },
	newline: { context: "editor", keys: ["shift+enter", "ctrl+enter", "ctrl+j"], description: "Insert a new line" },
	historyUp: { context: "editor", keys: ["up", "ctrl+p"], description: "Line up, or the previous input" },
	historyDown: { context: "editor", keys: ["down", "ctrl+n"], description: "Line down, or the next input" },
	// Ctrl+B is the background key (as in Claude Code), not Emacs' cursor left.
	left: { context: "editor", keys: ["left"], description: "Cursor left" },
	right: { context: "editor", keys: ["right", "ctrl+f"], description: "Cursor right" },
	wordLeft: { context: "editor", keys: ["ctrl+left", "alt+left", "alt+b"], description: "Cursor one word left" },
	wordRight: { context: "editor", keys: ["ctrl+right", "alt+right", "alt+f"], description: "Cursor one word right" },
	home: { context: "editor", keys: ["home", "ctrl+a"], description: "Start of the line" },
	end: { context: "editor", keys: ["end", "ctrl+e"], description: "End of the line" },
	backspace: { context: "editor", keys: ["backspace"], description: "Delete the character before the cursor" },
	delete: { context: "editor", keys: ["delete"], description: "Delete the character under the cursor" },
	deleteWordBack: {
		context: "editor",
		keys: ["alt+backspace", "ctrl+backspace", "ctrl+w"],
		description: "Delete the word before the cursor",
	},
	deleteToLineStart: { context: "editor", keys: ["ctrl+u"], description: "Delete to the start of the line" },
	interrupt: {
		context: "editor",
		keys: ["ctrl+c"],
		description: "Stop a run (as Esc); clear the input; on an empty input, press twice to quit",
	},
	quit: { context: "editor", keys: ["ctrl+d"], description: "Quit on an empty input while idle (otherwise delete forward)" },
	redraw: { context: "editor", keys: ["ctrl+l"], description: "Clear the screen and draw the history again" },
	toggleToolOutput: { context: "editor", keys: ["ctrl+o"], description: "Show the last tool output or thinking in full" },
	externalEditor: { context: "editor", keys: ["ctrl+g"], description: "Edit the input in $VISUAL / $EDITOR" },
	cycleMode: { context: "editor", keys: ["shift+tab"], description: "Next permission mode" },
	// While a run is active.
	abort: { context: "busy", keys: ["escape"], description: "Stop the reply and running tools; queued messages return to the input" },
	background: {
		context: "busy",
		keys: ["ctrl+b"],
		description: "Move the running bash command to the background (the model is told its job id; /ps lists it)",
	},
	selectAgent: {
		context: "busy",
		keys: ["alt+s"],
		description: "Select the next running sub-agent (then none): Enter steers it, Alt+Enter queues a follow-up for it",
	},
	// While no run is active.
	rewind: { context: "idle", keys: ["escape escape"], description: "Rewind to an earlier message" },
	// The completion popup.
	completionUp: { context: "completion", keys: ["up", "ctrl+p"], description: "Previous completion" },
	completionDown: { context: "completion", keys: ["down", "ctrl+n"], description: "Next completion" },
	complete: { context: "completion", keys: ["tab"], description: "Accept the completion" },
	completionAccept: {
		context: "completion",
		keys: ["enter"],
		description: "Accept the completion (and run a command that takes no arguments)",
	},
	completionClose: { context: "completion", keys: ["escape"], description: "Close the completion menu until the input changes" },
	// A picker (/model, /resume).
	pickerUp: { context: "picker", keys: ["up", "ctrl+p"], description: "Previous item" },
	pickerDown: { context: "picker", keys: ["down", "ctrl+n"], description: "Next item" },
	pickerPick: { context: "picker", keys: ["enter", "alt+enter"], description: "Choose the highlighted item" },
	pickerClose: { context: "picker", keys: ["escape", "ctrl+c"], description: "Close without choosing" },
	pickerRemove: {
		context: "picker",
		keys: ["d", "delete"],
		description: "Remove the highlighted item, after a confirmation (in a list that allows it: /permissions)",
	},
	pickerAdd: { context: "picker", keys: ["a"], description: "Add an item (in a list that allows it: /permissions)" },
	// The approval prompt of a tool call. No letter answers it: typed text never grants (issue 30). A
	// number moves to that choice, Enter takes it; a lasting grant asks once more before it is saved.
	approvalUp: { context: "approval", keys: ["up"], description: "Previous choice" },
	approvalDown: { context: "approval", keys: ["down"], description: "Next choice" },
	approvalNumber: {
		context: "approval",
		keys: ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
		description: "Move to the choice with this number (Enter takes it)",
	},
	approvalSelect: { context: "approval", keys: ["enter"], description: "Take the highlighted choice" },
	approvalFullText: { context: "approval", keys: ["ctrl+o"], description: "Show the whole command or diff in a pager" },
	approvalDenyAndStop: {
		context: "approval",
		keys: ["escape"],
		description: "Deny and stop the run (back, in a confirmation or the pager)",
	},
	// The pager of an approval's whole text.
	pagerUp: { context: "pager", keys: ["up", "k"], description: "Scroll up a line" },
	pagerDown: { context: "pager", keys: ["down", "j"], description: "Scroll down a line" },
	pagerPageUp: { context: "pager", keys: ["pageup", "b"], description: "Scroll up a page" },
	pagerPageDown: { context: "pager", keys: ["pagedown", "space"], description: "Scroll down a page" },
	pagerClose: { context: "pager", keys: ["q", "escape", "ctrl+o"], description: "Back to the approval" },
} as const satisfies Record<string, ActionSpec>;

export type Action = keyof typeof ACTIONS;

export const ACTION_NAMES = Object.keys(ACTIONS) as Action[];

/** Contexts that are active together, so one key may not do two things across them. */
const ACTIVE_TOGETHER: readonly (readonly BindingContext[])[] = [
	["editor", "idle"],
	["editor", "busy"],
	["completion"],
	["picker"],
	["approval"],
	["pager"],
];

/** Two presses of a sequence ("escape escape") must come this close together. */
export const SEQUENCE_MS = 500;

// ---------------------------------------------------------------------------------------------
// Keys as text

/** One key with its modifiers, as a key press is named after decoding. */
export interface KeyCombo {
	name: string;
	ctrl: boolean;
	alt: boolean;
	shift: boolean;
}

const NAMED_KEYS = new Set([
	"enter",
	"escape",
	"tab",
	"backspace",
	"delete",
	"up",
	"down",
	"left",
	"right",
	"home",
	"end",
	"pageup",
	"pagedown",
	"space",
]);
const KEY_ALIASES: Record<string, string> = { return: "enter", esc: "escape", del: "delete", spacebar: "space" };
const MODIFIERS: Record<string, keyof Omit<KeyCombo, "name">> = {
	ctrl: "ctrl",
	control: "ctrl",
	alt: "alt",
	option: "alt",
	meta: "alt",
	shift: "shift",
};

/** ` (did you mean "ctrl"?)` when one of `names` is close to `word`, else "". */
export function didYouMean(word: string, names: readonly string[]): string {
	const near = closestName(word, names);
	return near ? ` (did you mean "${near}"?)` : "";
}

/** The canonical text of a combo: modifiers in a fixed order, then the key ("ctrl+alt+x"). */
export function comboText(c: KeyCombo): string {
	return `${c.ctrl ? "ctrl+" : ""}${c.alt ? "alt+" : ""}${c.shift ? "shift+" : ""}${c.name}`;
}

/** Parses one combo ("Ctrl+Shift+Tab", "alt+enter", "y", "Y" = shift+y); an error text when it is not one. */
export function parseCombo(text: string): KeyCombo | string {
	const parts = text.trim().split("+");
	// "ctrl++" binds the plus key.
	if (parts.length > 1 && parts.at(-1) === "" && parts.at(-2) === "") parts.splice(-2, 2, "+");
	const keyPart = parts.pop() ?? "";
	const combo: KeyCombo = { name: "", ctrl: false, alt: false, shift: false };
	for (const part of parts) {
		// Own entries only: "constructor" or "toString" in a keybindings file is a key name, not Object's.
		const modifier = Object.hasOwn(MODIFIERS, part.toLowerCase()) ? MODIFIERS[part.toLowerCase()] : undefined;
		if (!modifier) return `"${part}" is not a modifier (ctrl, alt, shift)${didYouMean(part.toLowerCase(), Object.keys(MODIFIERS))}`;
		combo[modifier] = true;
	}
	if ([...keyPart].length === 1) {
		const lower = keyPart.toLowerCase();
		// A lone upper-case letter is what a terminal sends for Shift and the letter ("Ctrl+S" is just ctrl+s).
		if (lower !== keyPart && parts.length === 0) combo.shift = true;
		combo.name = lower === " " ? "space" : lower;
		return combo;
	}
	const lower = keyPart.toLowerCase();
	const name = Object.hasOwn(KEY_ALIASES, lower) ? KEY_ALIASES[lower] : lower;
	if (!NAMED_KEYS.has(name)) {
		const near = didYouMean(name, [...NAMED_KEYS, ...Object.keys(KEY_ALIASES)]);
		return `"${keyPart}" is not a key name (a character, or one of ${[...NAMED_KEYS].join(", ")})${near}`;
	}
	combo.name = name;
	return combo;
}

/** Parses a key of the table: one combo, or two separated by a space (a sequence); canonical text or an error. */
export function parseKey(text: string): { key: string } | { error: string } {
	const parts = text.trim().split(/\s+/).filter(Boolean);
	if (parts.length === 0 || parts.length > 2) return { error: "a key is one combo, or two separated by a space" };
	const combos: string[] = [];
	for (const part of parts) {
		const combo = parseCombo(part);
		if (typeof combo === "string") return { error: combo };
		combos.push(comboText(combo));
	}
	return { key: combos.join(" ") };
}

// ---------------------------------------------------------------------------------------------
// The resolved table

/** The table after the user's overrides: each action's keys, and each context's key → action. */
export interface KeyBindings {
	/** Canonical keys of every action, in the order given (the first is the one hints show). */
	keys: Readonly<Record<Action, readonly string[]>>;
	/** Context → canonical key (or "first second" sequence) → action. */
	byContext: Readonly<Record<BindingContext, ReadonlyMap<string, Action>>>;
}

export type KeyOverrides = Partial<Record<Action, readonly string[]>>;

/** Builds the table with `overrides` (each replaces an action's keys); the errors say which entry is wrong. */
export function buildKeyBindings(overrides: KeyOverrides = {}): { bindings: KeyBindings } | { errors: string[] } {
	const errors: string[] = [];
	const keys = {} as Record<Action, string[]>;
	for (const action of ACTION_NAMES) {
		const given = overrides[action] ?? ACTIONS[action].keys;
		keys[action] = [];
		for (const text of given) {
			const parsed = parseKey(text);
			if ("error" in parsed) errors.push(`"${action}": "${text}": ${parsed.error}`);
			else if (!keys[action].includes(parsed.key)) keys[action].push(parsed.key);
		}
	}
	const byContext = {} as Record<BindingContext, Map<string, Action>>;
	for (const group of ACTIVE_TOGETHER) {
		const seen = new Map<string, Action>();
		for (const action of ACTION_NAMES) {
			if (!group.includes(ACTIONS[action].context)) continue;
			for (const key of keys[action]) {
				const other = seen.get(key);
				if (other && other !== action) {
					const where = [...new Set([ACTIONS[other].context, ACTIONS[action].context])].join(" + ");
					errors.push(`"${key}" is bound to both "${other}" and "${action}" (${where})`);
				}
				seen.set(key, action);
			}
		}
	}
	for (const context of ["editor", "idle", "busy", "completion", "picker", "approval", "pager"] as const) {
		const map = new Map<string, Action>();
		for (const action of ACTION_NAMES) if (ACTIONS[action].context === context) for (const key of keys[action]) map.set(key, action);
		byContext[context] = map;
	}
	return errors.length ? { errors: [...new Set(errors)] } : { bindings: { keys, byContext } };
}

const built = buildKeyBindings();
if ("errors" in built) throw new Error(`The default key table is inconsistent: ${built.errors.join("; ")}`);

/** The defaults, before any keybindings.json. */
export const DEFAULT_KEY_BINDINGS: KeyBindings = built.bindings;
