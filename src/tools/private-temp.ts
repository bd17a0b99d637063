// One private folder per Rudder process for the files tools leave for the model (the full output of a
// long command): mode 0700 from mkdtemp, files 0600, so other users on the machine cannot read what a
// command printed (tokens, keys). The folder lives as long as the process, so a path given to the model
// stays valid for the whole session, and it is removed when the process exits.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let folder: string | undefined;

/** The process's private temp folder, created on first use. */
export function privateTempDir(): string {
	if (folder) return folder;
	const created = mkdtempSync(join(tmpdir(), `rudder-${process.pid}-`));
	folder = created;
	process.on("exit", () => removePrivateTempDir());
	return created;
}

/** Removes the folder and everything in it (at exit; also safe to call twice). */
export function removePrivateTempDir(): void {
	if (!folder) return;
	try {
		rmSync(folder, { recursive: true, force: true });
	} catch {
		// Exiting anyway; a folder we cannot remove is left to the system's temp cleaning.
	}
	folder = undefined;
}
