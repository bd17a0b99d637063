// Whether a project's hooks may run. The user's own (global) hooks always may. A project's came with
// the folder, perhaps from a cloned repository, and run with the user's rights outside the sandbox, so
// each runs only once the user trusted it: the answer is remembered per folder (by real path) in the
// data folder, never in the project, and the record holds every trusted hook in full (event, matcher,
// command, file), so a changed or added command is unknown again and is asked about again.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { hooksTrustFile } from "../../config/paths.js";
import { folderKey, readTrustFile, type TrustFile } from "../trust-file.js";
import { loadHooks } from "./config.js";
import type { HookCommand } from "./types.js";

type Env = Record<string, string | undefined>;

export type HookTrustState = "trusted" | "declined" | "unknown";

/** A hook as the record keeps it: all of what decides what runs and when. */
interface RecordedHook {
	event: string;
	matcher: string;
	command: string;
	file: string;
}

interface FolderRecord {
	trusted: RecordedHook[];
	declined: RecordedHook[];
	at: string;
}

/** `hooks-trust.json`: folder real path → the hooks trusted and declined there. */
type HooksTrustFile = TrustFile<FolderRecord>;

function recorded(hook: HookCommand): RecordedHook {
	return { event: hook.event, matcher: hook.matcher, command: hook.command, file: hook.file };
}

const sameHook = (a: RecordedHook, b: RecordedHook) =>
	a.event === b.event && a.matcher === b.matcher && a.command === b.command && a.file === b.file;

function folderRecord(file: HooksTrustFile, cwd: string): FolderRecord | undefined {
	const key = folderKey(cwd);
	const entry = Object.hasOwn(file.projects, key) ? file.projects[key] : undefined;
	if (typeof entry !== "object" || entry === null) return undefined;
	const list = (v: unknown) => (Array.isArray(v) ? v.filter((h): h is RecordedHook => typeof h?.command === "string") : []);
	return { trusted: list(entry.trusted), declined: list(entry.declined), at: String(entry.at ?? "") };
}

/** The state of each hook, in the order given: global ones trusted, project ones as the record says. */
export function hookTrustStates(hooks: readonly HookCommand[], context: { cwd: string; env?: Env }): HookTrustState[] {
	const record = folderRecord(readTrustFile<FolderRecord>(hooksTrustFile(context.env)), context.cwd);
	return hooks.map((hook) => {
		if (!hook.project) return "trusted";
		const mine = recorded(hook);
		if (record?.trusted.some((h) => sameHook(h, mine))) return "trusted";
		if (record?.declined.some((h) => sameHook(h, mine))) return "declined";
		return "unknown";
	});
}

/**
 * Records the user's answer on these project hooks of `cwd` (each in full). Trusting moves them out of
 * the declined list and declining out of the trusted one. The file is replaced whole, mode 0600.
 */
export function rememberHookTrust(hooks: readonly HookCommand[], allowed: boolean, context: { cwd: string; env?: Env }): void {
	const path = hooksTrustFile(context.env);
	const file = readTrustFile<FolderRecord>(path);
	const key = folderKey(context.cwd);
	const record = folderRecord(file, context.cwd) ?? { trusted: [], declined: [], at: "" };
	const answered = hooks.filter((h) => h.project).map(recorded);
	const without = (list: RecordedHook[]) => list.filter((h) => !answered.some((a) => sameHook(a, h)));
	const trusted = allowed ? [...without(record.trusted), ...answered] : without(record.trusted);
	const declined = allowed ? without(record.declined) : [...without(record.declined), ...answered];
	file.projects[key] = { trusted, declined, at: new Date().toISOString() };
	mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
	const temp = `${path}.${process.pid}.tmp`;
	writeFileSync(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
	renameSync(temp, path);
}

/** The project's hooks of `cwd` never answered for (or changed since): what the trust prompt lists. */
export function hooksWaitingForTrust(context: { cwd: string; env?: Env }): HookCommand[] {
	const { hooks } = loadHooks(context);
	const states = hookTrustStates(hooks, context);
	return hooks.filter((_, i) => states[i] === "unknown");
}
