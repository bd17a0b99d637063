// The /permissions screen, as pickers in a row (like the rewind menu): every rule in force with where it
// lives; d removes the highlighted one after a confirmation that names it exactly, a adds one (allow or
// deny, then the rule typed in a field and checked by the rule parser). The builders are pure;
// ui-requests.ts chains them and calls the session's rule admin. Rule texts come from files a cloned
// repository may ship, so every one is drawn on one line and sanitised (Picker.tsx sanitises too).
import { shownPath } from "../../config/paths.js";
import type { RuleEntry, RuleKind } from "../../permissions/rule-admin.js";
import type { RuleScope } from "../../permissions/types.js";
import { oneLine } from "../text/screen-text.js";
import type { PickerState } from "../widgets/Picker.js";

/** Where a rule lives, as the screen names it. */
export const SCOPE_LABELS: Readonly<Record<RuleScope, string>> = {
	session: "session (this run only)",
	project: "project (your approvals)",
	"project-settings": "project settings",
	global: "global",
	flag: "flag (--allow/--deny)",
};

/** Where a new rule of each kind is kept (rule-admin.ts's default scope), for the add step. */
const ADD_CHOICES: readonly { kind: RuleKind; label: string; detail: string }[] = [
	{ kind: "allow", label: "allow", detail: "runs without asking · kept with your approvals for this folder" },
	{ kind: "deny", label: "deny", detail: "never runs, in any mode · kept in your settings.json" },
];

/** `allow bash(npm test*)` */
const ruleLabel = (e: RuleEntry): string => `${e.kind === "allow" ? "allow" : "deny "}  ${oneLine(e.text)}`;

const whereLabel = (e: RuleEntry): string => `${SCOPE_LABELS[e.scope]}${e.file ? ` · ${oneLine(shownPath(e.file))}` : ""}`;

/** The same rule in the same place (for keeping the highlight on it). */
const sameRule = (a: RuleEntry, b: { kind: RuleKind; text: string; scope: RuleScope }) =>
	a.kind === b.kind && a.scope === b.scope && a.text.trim() === b.text.trim();

export interface RulesPickerActions {
	onRemove: (entry: RuleEntry) => void;
	onAdd: () => void;
	/** The rule to highlight (the one just added); the first when absent. */
	select?: { kind: RuleKind; text: string; scope: RuleScope };
	/** The permission mode, for the title. */
	mode?: string;
}

/** The list: one row per rule (undefined: the "no rules" row, which only an add leaves). */
export function rulesPicker(entries: readonly RuleEntry[], actions: RulesPickerActions): PickerState<RuleEntry | undefined> {
	const { onRemove, onAdd, select, mode } = actions;
	const index = select
		? Math.max(
				0,
				entries.findIndex((e) => sameRule(e, select)),
			)
		: 0;
	const title = `Permission rules (${entries.length})${mode ? ` · mode ${mode}` : ""}`;
	if (entries.length === 0)
		return { title, items: [{ label: "no rules yet: press a to add one" }], values: [undefined], index: 0, onPick: () => {}, onAdd };
	return {
		title,
		items: entries.map((e) => ({ label: ruleLabel(e), detail: whereLabel(e) })),
		values: [...entries],
		index,
		// Enter on a rule asks to remove it too: the confirmation names it, so nothing goes by accident.
		onPick: (e) => e && onRemove(e),
		onRemove: (e) => e && onRemove(e),
		onAdd,
	};
}

/** "Remove allow rule "bash(npm test*)" from project (your approvals) ~/…/x.json?" — No is highlighted. */
export function confirmRemovePicker(entry: RuleEntry, onPick: (yes: boolean) => void): PickerState<boolean> {
	return {
		title: `Remove ${entry.kind} rule "${oneLine(entry.text)}" from ${whereLabel(entry)}?`,
		items: [{ label: "No, keep it" }, { label: `Yes, remove ${entry.kind} ${oneLine(entry.text)}` }],
		values: [false, true],
		index: 0,
		onPick,
	};
}

export function addKindPicker(onPick: (kind: RuleKind) => void): PickerState<RuleKind> {
	return {
		title: "Add a rule",
		items: ADD_CHOICES.map((c) => ({ label: c.label, detail: c.detail })),
		values: ADD_CHOICES.map((c) => c.kind),
		index: 0,
		onPick,
	};
}

/** The field's title for typing a rule of `kind`. */
export const addRuleTitle = (kind: RuleKind): string => `New ${kind} rule, e.g. bash(npm test*), edit(src/**), web_fetch`;

/** The notices the screen prints for what it did (sanitised and on one line like the rows). */
export const removedNotice = (e: RuleEntry): string => `Removed ${e.kind} ${oneLine(e.text)} (${whereLabel(e)})`;
export const addedNotice = (e: RuleEntry): string => `Added ${e.kind} ${oneLine(e.text)} (${whereLabel(e)})`;
