// Reading the JSON files of the config folder: absent is not an error, and a parse error names the file.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export function readIfExists(file: string): string | undefined {
	if (!existsSync(file)) return undefined;
	return readFileSync(file, "utf8");
}

/** The top-level object of a config file; throws `<file>: <problem>`, one line. */
export function parseJsonObject(text: string, file: string): Record<string, unknown> {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new Error(`${file}: invalid JSON: ${(error as Error).message.split("\n")[0]}`);
	}
	if (!isObject(value)) throw new Error(`${file}: expected a JSON object at the top level`);
	return value;
}

export function isObject(value: unknown): value is Record<string, any> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Writes `value` as JSON beside `file` and renames it into place, so a crash never leaves half a file
 * and a reader sees the old or the new one. The mode is set on the temp file before any data lands.
 */
export function writeJsonAtomic(file: string, value: unknown, mode = 0o644): void {
	mkdirSync(dirname(file), { recursive: true, mode: mode === 0o600 ? 0o700 : 0o755 });
	const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
	try {
		writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode });
		chmodSync(temp, mode);
		renameSync(temp, file);
	} catch (error) {
		rmSync(temp, { force: true });
		throw error;
	}
}
