import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandHome, resolveToolPath } from "../../src/tools/resolve-path.js";

describe("resolveToolPath", () => {
	it("resolves relative paths against the session cwd, not the process cwd", () => {
		expect(resolveToolPath("src/a.ts", "/work/project")).toBe("/work/project/src/a.ts");
		expect(resolveToolPath("../b", "/work/project")).toBe("/work/b");
		expect(resolveToolPath(".", "/work/project")).toBe("/work/project");
	});
	it("keeps absolute paths and normalises them", () => {
		expect(resolveToolPath("/etc/./hosts", "/work/project")).toBe("/etc/hosts");
	});
	it("expands ~ and drops a leading @", () => {
		expect(expandHome("~")).toBe(homedir());
		expect(resolveToolPath("~/notes.md", "/work/project")).toBe(join(homedir(), "notes.md"));
		expect(resolveToolPath("@src/a.ts", "/work/project")).toBe("/work/project/src/a.ts");
		expect(expandHome("a~/b")).toBe("a~/b");
	});
});
