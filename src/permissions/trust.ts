// Which project folders the user trusted to widen Rudder's permissions, remembered per real path in
// the user's data folder (never in the project, so a clone cannot mark itself trusted).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface TrustFile {
	folders: Record<string, { trusted: boolean; at: string }>;
}

export function trustFilePath(dataFolder: string): string {
	return join(dataFolder, "trusted-folders.json");
}

function readTrustFile(file: string): TrustFile {
	if (!existsSync(file)) return { folders: {} };
	try {
		const data = JSON.parse(readFileSync(file, "utf8")) as TrustFile;
		return data && typeof data.folders === "object" && data.folders !== null ? data : { folders: {} };
	} catch {
		// A broken file trusts nothing; the next answer rewrites it.
		return { folders: {} };
	}
}

/** The remembered answer for `realFolder`: true / false, or undefined when never asked. */
export function folderTrust(dataFolder: string, realFolder: string): boolean | undefined {
	const entry = readTrustFile(trustFilePath(dataFolder)).folders[realFolder];
	return typeof entry?.trusted === "boolean" ? entry.trusted : undefined;
}

export function rememberTrust(dataFolder: string, realFolder: string, trusted: boolean): void {
	const file = trustFilePath(dataFolder);
	const data = readTrustFile(file);
	data.folders[realFolder] = { trusted, at: new Date().toISOString() };
	mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
	const temp = `${file}.${process.pid}.tmp`;
	writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
	chmodSync(temp, 0o600);
	renameSync(temp, file);
}
