// Where commands, skills and agent definitions are read from, in rising precedence: the user's global folder, then the
// project's `.claude/` (for users coming from Claude Code), then the project's `.rudder/`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { configDir } from "../config/paths.js";

type Env = Record<string, string | undefined>;

export type ExtensionScope = "global" | "project";

export interface ExtensionFolder {
	path: string;
	scope: ExtensionScope;
}

/** `kind` is the sub-folder name: "commands", "skills" or "agents". Lowest precedence first. */
export function extensionFolders(kind: "commands" | "skills" | "agents", cwd: string, env?: Env): ExtensionFolder[] {
	return [
		{ path: join(configDir(env), kind), scope: "global" },
		{ path: join(cwd, ".claude", kind), scope: "project" },
		{ path: join(cwd, ".rudder", kind), scope: "project" },
	];
}

/** Entries of a folder, sorted; a missing or unreadable folder is empty. */
export function listFolder(path: string): string[] {
	try {
		return readdirSync(path).sort();
	} catch {
		return [];
	}
}

/** Files larger than this are skipped: a command or skill header is a few lines. */
export const MAX_EXTENSION_FILE_BYTES = 256 * 1024;

/** A text file's content, or undefined (with the reason) when it is missing, not a file or too large. */
export function readSmallFile(path: string): { text?: string; problem?: string } {
	try {
		const stat = statSync(path);
		if (!stat.isFile()) return { problem: "not a file" };
		if (stat.size > MAX_EXTENSION_FILE_BYTES) return { problem: `larger than ${MAX_EXTENSION_FILE_BYTES / 1024} KB` };
		return { text: readFileSync(path, "utf8") };
	} catch (error) {
		return { problem: (error as NodeJS.ErrnoException).code ?? "unreadable" };
	}
}
