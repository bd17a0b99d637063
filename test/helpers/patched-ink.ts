// A Vite plugin that applies the bundle's Ink patches (src/tui/ink/patches.ts) to Ink's build files,
// so the "patched-ink" test project (vitest.config.ts) runs the App on the Ink users run. An import
// with `?unpatched` is left alone: the behaviour tests compare the patched code with Ink's own.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";
import { PATCHED_FILES, patchInkFile } from "../../src/tui/ink/patches.js";

const inkDir = join(import.meta.dirname, "..", "..", "src", "tui", "ink");
const INK_BUILD_FILE = /[\\/]ink[\\/]build[\\/]([\w-]+\.js)$/;
const INK_FILE = /[\\/]node_modules[\\/]ink(?:-[\w-]+)?[\\/]build[\\/].*\.js$/;
const SOURCE_MAP_COMMENT = /^\/\/# sourceMappingURL=.*$/m;

export function patchedInk(): Plugin {
	return {
		name: "rudder-patched-ink",
		enforce: "pre",
		// Ink and its testing library ship source maps without their sources; Vite would warn per file.
		load(id) {
			const path = id.split("?")[0];
			return INK_FILE.test(path) ? readFileSync(path, "utf8").replace(SOURCE_MAP_COMMENT, "") : undefined;
		},
		transform(code, id) {
			const [path, query = ""] = id.split("?");
			const file = INK_BUILD_FILE.exec(path)?.[1];
			if (!file || !PATCHED_FILES.includes(file) || query.includes("unpatched")) return undefined;
			return { code: patchInkFile(file, code, inkDir), map: null };
		},
	};
}
