// A fresh real folder per test, removed afterwards: the tools are tested on the real file system.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach } from "vitest";

export interface TempFolder {
	path: string;
	/** Writes files given as `{ "relative/path": content }`, creating folders. */
	write(files: Record<string, string | Uint8Array>): Promise<void>;
}

/** Registers beforeEach/afterEach hooks and returns a handle whose `path` is valid inside each test. */
export function useTempFolder(): TempFolder {
	const handle: TempFolder = {
		path: "",
		async write(files) {
			for (const [rel, content] of Object.entries(files)) {
				const abs = join(handle.path, rel);
				await mkdir(dirname(abs), { recursive: true });
				await writeFile(abs, content);
			}
		},
	};
	beforeEach(async () => {
		handle.path = await mkdtemp(join(tmpdir(), "rudder-tools-"));
	});
	afterEach(async () => {
		await rm(handle.path, { recursive: true, force: true });
	});
	return handle;
}

/** The text of a tool result's first text block. */
export function textOf(result: { content: { type: string; text?: string }[] }): string {
	const block = result.content.find((c) => c.type === "text");
	return block?.text ?? "";
}
