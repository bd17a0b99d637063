// A generated monorepo for the scale benchmarks: `files` tracked-size source files in packages of
// folders (~1 KB each), each package with its own .gitignore and an ignored dist/ (a tenth of its
// size, must cost nothing), a root node_modules (skipped), a few linked files, one rare needle near
// the end and one deep file for `@`. A git repository (the checkpoints' and grep's notion of a project).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const LINE = "export const value = 'a line of ordinary source text for the benchmark';\n";
export const NEEDLE = "rareNeedle42";
export const DEEP_FILE = "packages/pkg-0/src/very/deep/nested/folder/TargetWidget.tsx";

/** Makes the tree in a fresh temp folder; `remove()` deletes it. */
export function makeMonorepo(files) {
	const base = mkdtempSync(join(tmpdir(), "rudder-bench-mono-"));
	const ws = join(base, "ws");
	const perFolder = 50;
	const perPackage = 2_000;
	for (let i = 0; i < files; i++) {
		const pkg = `packages/pkg-${Math.floor(i / perPackage)}`;
		const folder = join(ws, pkg, "src", `module-${Math.floor((i % perPackage) / perFolder)}`);
		if (i % perFolder === 0) mkdirSync(folder, { recursive: true });
		if (i % perPackage === 0) {
			writeFileSync(join(ws, pkg, ".gitignore"), "dist/\n*.log\n");
			mkdirSync(join(ws, pkg, "dist"), { recursive: true });
		}
		const name = `component-${i}.${i % 5 === 0 ? "md" : i % 3 === 0 ? "tsx" : "ts"}`;
		writeFileSync(join(folder, name), `// file ${i}\n${LINE.repeat(13)}${i === files - 7 ? `${NEEDLE}\n` : ""}`);
		if (i % 10 === 0) writeFileSync(join(ws, pkg, "dist", `out-${i}.js`), `${NEEDLE}\n`);
	}
	mkdirSync(join(ws, DEEP_FILE, ".."), { recursive: true });
	writeFileSync(join(ws, DEEP_FILE), "export {};\n");
	mkdirSync(join(ws, "node_modules", "pkg"), { recursive: true });
	for (let i = 0; i < files / 20; i++) writeFileSync(join(ws, "node_modules", "pkg", `m${i}.js`), `${NEEDLE}\n`);
	writeFileSync(join(ws, ".gitignore"), "node_modules/\n");
	for (let i = 0; i < 5; i++)
		symlinkSync(`../packages/pkg-0/src/module-${i}/component-${i * perFolder}.md`, join(ws, `packages/link-${i}.md`));
	execFileSync("git", ["init", "--quiet"], { cwd: ws });
	return { base, ws, files, remove: () => rmSync(base, { recursive: true, force: true }) };
}
