// Writes a file, creating its folders: tests lay out config and project trees in one line per file.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export function putFile(path: string, text: string): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
}
