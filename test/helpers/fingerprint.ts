// Every file under a folder with the hash of its bytes and its mode: compare two of them to show that
// nothing under the folder was read-modified-written (a project's `.git` next to our shadow repository).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export function fingerprint(dir: string): Record<string, string> {
	const out: Record<string, string> = {};
	const walk = (folder: string) => {
		for (const entry of readdirSync(folder, { withFileTypes: true })) {
			const full = join(folder, entry.name);
			if (entry.isDirectory()) walk(full);
			else out[relative(dir, full)] = `${createHash("sha256").update(readFileSync(full)).digest("hex")}:${statSync(full).mode}`;
		}
	};
	walk(dir);
	return out;
}
