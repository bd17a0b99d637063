// A project's settings file comes with the folder (a clone), like its permission rules: what in it
// spends the user's money or lowers their safety waits until the folder is trusted, as permission
// widenings do (src/permissions/resolve.ts). Everything else (queue modes, notifications, narrower
// limits) applies at once. The table below is the whole list; a new setting of that kind (hooks, say)
// gets a row here.
import type { Settings, SettingsFile } from "./settings.js";

/** One project entry that waits for trust, shaped like a permission `Widening` so one prompt lists both. */
export interface HeldSetting {
	file: string;
	entry: string;
}

type Section = "compaction" | "retry" | "tools" | "webSearch";

interface HeldRule {
	/** A top-level field, or `section.field`. */
	readonly field: keyof SettingsFile | `${Section}.${string}`;
	/** Whether the project's `value` would cost money or safety against the user's own `current`. */
	readonly holds: (value: unknown, current: unknown) => boolean;
}

const HELD: readonly HeldRule[] = [
	// A model the user did not choose: another provider, another price, another place the code goes.
	{ field: "defaultModel", holds: (value, current) => value !== current },
	// More thinking is more output tokens on every reply.
	{ field: "defaultThinkingLevel", holds: (value, current) => value !== current },
	// No checkpoints means no /undo of what the model wrote.
	{ field: "checkpoints", holds: (value) => value === false },
	// Compaction is a paid request of its own; more retries are more paid requests.
	{ field: "compaction.enabled", holds: (value, current) => value === true && current === false },
	{ field: "retry.maxRetries", holds: (value, current) => (value as number) > (current as number) },
	{ field: "tools.maxProcesses", holds: (value, current) => (value as number) > (current as number) },
	// A search server the project chose would receive every query the model makes.
	{ field: "webSearch.searxngUrl", holds: (value, current) => value !== current },
];

function read(layer: object, path: string): unknown {
	let at: unknown = layer;
	for (const key of path.split(".")) {
		if (typeof at !== "object" || at === null || !Object.hasOwn(at, key)) return undefined;
		at = (at as Record<string, unknown>)[key];
	}
	return at;
}

function remove(layer: SettingsFile, path: string): void {
	const [head, tail] = path.split(".") as [string, string | undefined];
	if (tail === undefined) delete (layer as Record<string, unknown>)[head];
	else delete (layer as Record<string, Record<string, unknown>>)[head]?.[tail];
}

/**
 * The project layer without the entries that wait for trust (compared with the user's own `current`
 * settings, global file over defaults), and the entries taken out.
 */
export function holdProjectSettings(
	project: SettingsFile,
	current: Settings,
	file: string,
): { project: SettingsFile; held: HeldSetting[] } {
	const kept = structuredClone(project);
	const held: HeldSetting[] = [];
	for (const rule of HELD) {
		const value = read(project, rule.field);
		if (value === undefined || !rule.holds(value, read(current, rule.field))) continue;
		held.push({ file, entry: `${rule.field} ${JSON.stringify(value)}` });
		remove(kept, rule.field);
	}
	return { project: kept, held };
}

/** The one notice for held entries (none when nothing is held). */
export function heldSettingsNotice(held: readonly HeldSetting[]): string | undefined {
	if (held.length === 0) return undefined;
	return `Ignored ${held.map((h) => h.entry).join(", ")} in ${held[0].file}: this folder is not trusted to change the model, costs or safety settings (start rudder with --trust-project to trust it)`;
}
