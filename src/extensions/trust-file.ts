// The files that remember which project configuration the user trusted (hooks-trust.json,
// mcp-trust.json in the data folder, never in the project): keyed by the folder's real path, and read
// so that a missing or broken file trusts nothing — the user is asked again, nothing runs by mistake.
import { readFileSync, realpathSync } from "node:fs";

/** A trust file: folder real path → that folder's answers. */
export interface TrustFile<T> {
	projects: Record<string, T>;
}

/** Folders by real path: the same project reached through a symlink is the same answer. */
export function folderKey(cwd: string): string {
	try {
		return realpathSync(cwd);
	} catch {
		return cwd;
	}
}

/** The file at `path`; empty when it is missing, not JSON, or its `projects` is not an object. */
export function readTrustFile<T>(path: string): TrustFile<T> {
	try {
		const data = JSON.parse(readFileSync(path, "utf8")) as TrustFile<T>;
		return typeof data?.projects === "object" && data.projects !== null && !Array.isArray(data.projects) ? data : { projects: {} };
	} catch {
		return { projects: {} };
	}
}
