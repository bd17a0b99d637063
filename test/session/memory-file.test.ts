// `#text` / `/memory`: which AGENTS.md a line goes to, and the write itself: appended whole through a
// rename, secrets redacted, and never through a link that leads out of its tree.
import {
	chmodSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processSecrets, REDACTED } from "../../src/safety/secrets.js";
import { appendMemory, type MemoryTarget, memoryTargets } from "../../src/session/memory-file.js";

let root: string;
let repo: string;
let env: Record<string, string>;
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "rudder-memory-")));
	repo = join(root, "repo");
	mkdirSync(join(repo, ".git"), { recursive: true });
	mkdirSync(join(repo, "pkg", "src"), { recursive: true });
	env = { RUDDER_HOME: join(root, "config") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const target = (cwd: string, scope: "project" | "global"): MemoryTarget =>
	memoryTargets(cwd, env).find((t) => t.scope === scope) as MemoryTarget;

describe("memory targets", () => {
	it("the project's is the nearest AGENTS.md up to the repository root, else the root's (new); the global one is in the config folder", () => {
		const cwd = join(repo, "pkg", "src");
		expect(memoryTargets(cwd, env)).toEqual([
			{ scope: "project", file: join(repo, "AGENTS.md"), root: repo, exists: false },
			{ scope: "global", file: join(root, "config", "AGENTS.md"), root: join(root, "config"), exists: false },
		]);
		writeFileSync(join(repo, "AGENTS.md"), "# root\n");
		writeFileSync(join(repo, "pkg", "AGENTS.md"), "# pkg\n");
		expect(target(cwd, "project")).toMatchObject({ file: join(repo, "pkg", "AGENTS.md"), exists: true });
		// Above the repository is not the project's.
		writeFileSync(join(root, "AGENTS.md"), "# above\n");
		rmSync(join(repo, "AGENTS.md"));
		rmSync(join(repo, "pkg", "AGENTS.md"));
		expect(target(cwd, "project")).toMatchObject({ file: join(repo, "AGENTS.md"), exists: false });
	});
});

describe("appendMemory", () => {
	it("writes the line as the picker showed it: controls visible, colour codes dropped, a bidi override marked, never raw", () => {
		const project = target(repo, "project");
		appendMemory(project, "esc \u001b[31mred\u001b[0m \u001b]0;pwned\u0007 title \u202e rtl \u001b[2J end");
		const written = readFileSync(join(repo, "AGENTS.md"), "utf8");
		expect(written).toBe("- esc red ^[]0;pwned^G title ⟪U+202E⟫ rtl ^[[2J end\n");
		expect(written).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
	});

	it("creates the file, then appends a line each time (a missing final newline is added first), keeping the mode", () => {
		const project = target(repo, "project");
		expect(appendMemory(project, "use pnpm, not npm")).toBe(join(repo, "AGENTS.md"));
		expect(readFileSync(join(repo, "AGENTS.md"), "utf8")).toBe("- use pnpm, not npm\n");
		writeFileSync(join(repo, "AGENTS.md"), "# Rules\nno trailing newline");
		chmodSync(join(repo, "AGENTS.md"), 0o600);
		appendMemory(target(repo, "project"), "  tests   live in test/ \n");
		expect(readFileSync(join(repo, "AGENTS.md"), "utf8")).toBe("# Rules\nno trailing newline\n- tests live in test/\n");
		expect(statSync(join(repo, "AGENTS.md")).mode & 0o777).toBe(0o600);
		// Nothing left behind: the temp file was renamed over the file.
		expect(readdirSync(repo).filter((name) => name.endsWith(".tmp"))).toEqual([]);
		// The global one, its folder created.
		appendMemory(target(repo, "global"), "answer in English");
		expect(readFileSync(join(root, "config", "AGENTS.md"), "utf8")).toBe("- answer in English\n");
	});

	it("redacts a known secret and refuses an empty line", () => {
		const secret = "sk-memory-secret-0123456789";
		processSecrets.add(secret);
		appendMemory(target(repo, "project"), `deploy key is ${secret}`);
		expect(readFileSync(join(repo, "AGENTS.md"), "utf8")).toBe(`- deploy key is ${REDACTED}\n`);
		expect(() => appendMemory(target(repo, "project"), "   ")).toThrow(/Nothing to add/);
	});

	it("never writes through a link out of the repository; a link inside it is followed and stays a link", () => {
		const outside = join(root, "outside.txt");
		writeFileSync(outside, "precious\n");
		symlinkSync(outside, join(repo, "AGENTS.md"));
		expect(() => appendMemory(target(repo, "project"), "hello")).toThrow(`is a link to ${outside}, outside ${repo}: not changed`);
		expect(readFileSync(outside, "utf8")).toBe("precious\n");
		expect(lstatSync(join(repo, "AGENTS.md")).isSymbolicLink()).toBe(true);

		rmSync(join(repo, "AGENTS.md"));
		writeFileSync(join(repo, "docs.md"), "# Docs\n");
		symlinkSync("docs.md", join(repo, "AGENTS.md"));
		expect(appendMemory(target(repo, "project"), "hello")).toBe(join(repo, "docs.md"));
		expect(readFileSync(join(repo, "docs.md"), "utf8")).toBe("# Docs\n- hello\n");
		expect(lstatSync(join(repo, "AGENTS.md")).isSymbolicLink()).toBe(true);
	});

	it("the global file too: a link out of the config folder is refused", () => {
		mkdirSync(join(root, "config"), { recursive: true });
		const outside = join(root, "elsewhere.md");
		writeFileSync(outside, "x\n");
		symlinkSync(outside, join(root, "config", "AGENTS.md"));
		expect(() => appendMemory(target(repo, "global"), "hello")).toThrow(/outside .*config: not changed/);
		expect(readFileSync(outside, "utf8")).toBe("x\n");
	});
});
