// What the user decided per project folder, remembered by real path in the user's data folder (never
// in the project, so a clone can neither mark itself trusted nor carry approvals): whether its
// settings may widen permissions, and the rules made with "always allow in this project".
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PermissionRule } from "./types.js";

interface FolderEntry {
	trusted?: boolean;
	at?: string;
	allow?: { text: string; tool: string; pattern?: string; exact?: boolean }[];
}

interface ProjectsFile {
	folders: Record<string, FolderEntry>;
}

export function trustFilePath(dataFolder: string): string {
	return join(dataFolder, "project-permissions.json");
}

function readProjects(file: string): ProjectsFile {
	if (!existsSync(file)) return { folders: {} };
	try {
		const data = JSON.parse(readFileSync(file, "utf8")) as ProjectsFile;
		return data && typeof data.folders === "object" && data.folders !== null ? data : { folders: {} };
	} catch {
		// A broken file trusts nothing; the next answer rewrites it.
		return { folders: {} };
	}
}

function update(dataFolder: string, realFolder: string, change: (entry: FolderEntry) => void): void {
	const file = trustFilePath(dataFolder);
	const data = readProjects(file);
	const entry = data.folders[realFolder] ?? {};
	change(entry);
	data.folders[realFolder] = entry;
	mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
	const temp = `${file}.${process.pid}.tmp`;
	writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
	chmodSync(temp, 0o600);
	renameSync(temp, file);
}

/** The remembered answer for `realFolder`: true / false, or undefined when never asked. */
export function folderTrust(dataFolder: string, realFolder: string): boolean | undefined {
	const entry = readProjects(trustFilePath(dataFolder)).folders[realFolder];
	return typeof entry?.trusted === "boolean" ? entry.trusted : undefined;
}

export function rememberTrust(dataFolder: string, realFolder: string, trusted: boolean): void {
	update(dataFolder, realFolder, (entry) => {
		entry.trusted = trusted;
		entry.at = new Date().toISOString();
	});
}

/** Rules the user made with "always allow in this project". */
export function projectRules(dataFolder: string, realFolder: string): PermissionRule[] {
	const file = trustFilePath(dataFolder);
	const entry = readProjects(file).folders[realFolder];
	return (entry?.allow ?? [])
		.filter((r) => typeof r?.tool === "string" && typeof r.text === "string")
		.map((r) => ({ ...r, source: `your approvals for this project (${file})`, scope: "project" as const, file }));
}

export function addProjectRule(dataFolder: string, realFolder: string, rule: PermissionRule): void {
	update(dataFolder, realFolder, (entry) => {
		const { source: _source, scope: _scope, file: _file, ...stored } = rule;
		entry.allow = [...(entry.allow ?? []).filter((r) => r.text !== rule.text), stored];
	});
}

/** Removes an "always allow in this project" rule by its text; false when there was none. */
export function removeProjectRule(dataFolder: string, realFolder: string, text: string): boolean {
	let removed = false;
	update(dataFolder, realFolder, (entry) => {
		const kept = (entry.allow ?? []).filter((r) => r.text !== text);
		removed = kept.length !== (entry.allow ?? []).length;
		entry.allow = kept;
	});
	return removed;
}
