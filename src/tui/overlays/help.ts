// What `/help` shows in the app: the commands of the registry and the keys of the key table in use
// (defaults plus keybindings.json), both generated, so a rebound key or a custom command shows as it is.
import type { SlashCommandInfo } from "../../session/types.js";
import { keyLabels } from "../keys/key-hints.js";
import { ACTION_NAMES, ACTIONS, type BindingContext, type KeyBindings } from "../keys/keybindings.js";
import { displayWidth } from "../text/text-width.js";

/** Headings of the key groups, in the order shown. */
const KEY_GROUPS: readonly (readonly [string, readonly BindingContext[]])[] = [
	["Keys in the input", ["editor", "idle", "busy"]],
	["In the completion menu", ["completion"]],
	["In a picker", ["picker"]],
	["On an approval prompt", ["approval"]],
];

/** Rows with their first column padded to the widest, so the descriptions line up. */
function columns(rows: readonly (readonly [string, string])[]): string[] {
	const width = Math.max(0, ...rows.map(([left]) => displayWidth(left)));
	return rows.map(([left, right]) => `  ${left}${" ".repeat(width - displayWidth(left))}  ${right}`);
}

export function helpText(commands: readonly SlashCommandInfo[], bindings: KeyBindings): string {
	const commandRows: [string, string][] = commands.map((c) => [
		`/${c.name}${c.args ? ` ${c.args}` : ""}`,
		`${c.description}${c.source ? ` (${c.source})` : ""}`,
	]);
	commandRows.push(
		["!cmd", "Run a shell command; its output goes to the context"],
		["!!cmd", "Run a shell command, output not sent to the model"],
	);
	const lines = ["Commands:", ...columns(commandRows)];
	for (const [heading, contexts] of KEY_GROUPS) {
		const rows = ACTION_NAMES.filter((a) => contexts.includes(ACTIONS[a].context)).flatMap((a) => {
			const keys = keyLabels(bindings, a);
			return keys ? [[keys, ACTIONS[a].description] as const] : [];
		});
		if (rows.length) lines.push(`${heading}:`, ...columns(rows));
	}
	return lines.join("\n");
}
